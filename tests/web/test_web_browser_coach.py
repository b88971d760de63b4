"""The coach at the table in Chromium at a phone's size (390x844): the six dealt tapped in on the
Photo tab, "Which to throw?" as the dealer ranks the discards as ``crib discard --dealer`` does,
each with its figures and why; the History tab sums each player's expected points given away
by the discards and opens them deal by deal.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_web_browser import expect, new_game, send_events
from test_web_browser_words import LAYOUT

from companion.cli import main
from cribbage.coach.review import review_game
from cribbage.game import Settings
from cribbage.game.simulate import random_game

pytestmark = pytest.mark.browser

DEALT = ["5H", "5S", "JD", "QC", "2H", "9S"]




def crib_discard(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["discard", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_six_tapped_in_and_dealer_show_the_best_discard_first(page: Any,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    page.click("#tabs >> text=Photo")
    throw = page.locator("#photo-throw")
    for n, card in enumerate(DEALT, 1):
        expect(throw).to_be_hidden()  # fewer than the six dealt: nothing to throw yet
        page.click(f'#photo-picker button[data-card="{card}"]')
        expect(page.locator("#photo-cards [data-card]:not([data-card=''])")).to_have_count(n)
    expect(throw).to_be_visible()
    expect(throw).to_contain_text("Which to throw?")
    page.click('#photo-throw button[data-role="dealer"]')
    want = crib_discard(capsys, *DEALT, "--dealer")["options"]
    rows = page.locator("#photo-advice ol.discards > li")
    expect(rows).to_have_count(5)
    for row, option in zip([rows.nth(i) for i in range(5)], want, strict=True):
        expect(row).to_have_attribute("data-throw", " ".join(option["discard"]))
        expect(row.locator(".figures")).to_have_text(
            f"hand {tenths(option['hand'])} crib {tenths(option['crib'])} total {tenths(option['total'])}")
    best = rows.first
    expect(best.locator(".throw")).to_have_text("Throw 2♥ 9♠ keep 5♥ 5♠ J♦ Q♣")
    expect(best.locator(".why")).to_contain_text("Keeps 5♥ 5♠ J♦ Q♣: 10 before the starter (four fifteens")
    crib = f"The crib gets 2♥ 9♠ (yours): likely worth {want[0]['crib']:.1f}"
    expect(best.locator(".why")).to_contain_text(crib)
    # the pone's ranking replaces it, and the layout holds at a phone's width
    page.click('#photo-throw button[data-role="pone"]')
    pone = crib_discard(capsys, *DEALT, "--pone")["options"]
    expect(rows.first).to_have_attribute("data-throw", " ".join(pone[0]["discard"]))
    expect(rows.first.locator(".why")).to_contain_text("(your opponent's)")
    page.evaluate("() => { window.scrollTo(0, 0); document.querySelector('#toast').hidden = true; }")
    got = page.evaluate(LAYOUT)
    assert got["overlaps"] == [] and got["small"] == [] and not got["wide"], got
    # a card taken out: no longer the six dealt, and the ranking of the six goes
    page.click('#photo-cards button[data-card="9S"]')
    page.click("#photo-remove")
    expect(throw).to_be_hidden()
    expect(rows).to_have_count(0)


def test_the_history_tab_sums_what_the_discards_gave_away(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    game, events = random_game(Settings.from_json({"players": ["Ann", "Bob"]}), random.Random(8), max_deals=3)
    send_events(page, events)
    review = review_game(game.to_json())
    assert len(review["deals"]) >= 2
    totals = ", ".join(f"{p['name']} {tenths(p['given_away'])}" for p in review["players"])
    page.click("#tabs >> text=History")
    given = page.locator("#games li").first.locator(".given")
    expect(given).to_contain_text(f"Given away by the discards (expected): {totals}")
    page.locator("#games li").first.locator("button", has_text="Review").click()
    deals = page.locator("#review .review-deals > li")
    expect(deals).to_have_count(len(review["deals"]))
    first = review["deals"][0]
    for seat, r in first["seats"].items():
        line = deals.first.locator(f'li[data-seat="{seat}"]')
        expect(line).to_contain_text(" ".join(c for c in _symbols(r["kept"])))
        if tenths(r["given_away"]) != "0.0":
            expect(line).to_contain_text(f"gave away {tenths(r['given_away'])}")
        elif r["given_away"] > 0.005:
            expect(line).to_contain_text("as good as the best")
        else:
            expect(line).to_contain_text("the best choice")
    page.evaluate("() => { window.scrollTo(0, 0); document.querySelector('#toast').hidden = true; }")
    got = page.evaluate(LAYOUT)
    assert got["overlaps"] == [] and got["small"] == [] and not got["wide"], got


def tenths(x: float) -> str:
    """Expected points as every view shows them: one decimal (the page's tenths)."""
    return f"{x:.1f}"


def _symbols(cards: list[str]) -> list[str]:
    from cribbage.cards import parse_card

    return [parse_card(c).symbol for c in cards]
