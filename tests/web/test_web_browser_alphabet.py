"""The page's card alphabet is the engine's (issue 37, the house): ranks, suits and the suits'
signs come from ``GET /api/session`` as the variants do, and the pickers are built from them
(app.js keeps no alphabet of its own). Chromium at 390x844 and 844x390.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browserkit import TIMEOUT
from test_web_browser import expect
from webhelpers import Api

from cribbage.cards import RANKS, SUIT_SYMBOLS, SUITS

pytestmark = pytest.mark.browser


def test_the_session_carries_the_engines_card_alphabet(api: Api) -> None:
    cards = api.get("/api/session").get_json()["cards"]
    assert cards == {"ranks": RANKS, "suits": SUITS, "symbols": SUIT_SYMBOLS}


@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["390x844", "844x390"])
def test_the_pickers_are_built_from_the_sessions_alphabet(browser: Any, server: str,
                                                          size: tuple[int, int]) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []

    def session(route: Any) -> None:  # the same session, its suits in another order and signs
        body = route.fetch().json()
        other = SUITS[1] + SUITS[0] + SUITS[2:]  # hearts before spades: another order than the engine's
        body["cards"] = {"ranks": RANKS, "suits": other, "symbols": other.lower()}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    context.route("**/api/session", session)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server)
    page.click("#tabs >> text=Play")
    keys = page.locator("#picker .pick")
    expect(keys).to_have_count(52)
    expect(keys.first).to_have_attribute("data-card", "AH")
    expect(keys.first).to_have_text("Ah")
    expect(keys.nth(13)).to_have_attribute("data-card", "AS")
    expect(page.locator("#edit-picker .pick").first).to_have_attribute("data-card", "AH")
    context.close()
    assert errors == [], errors
