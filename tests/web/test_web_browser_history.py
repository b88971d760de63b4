"""History at a phone's size (issue 37, polish): the score chart opens under the game it is of,
in view (not below the whole list), and follows that game while it is played; expected points
are rounded by one rule in every view (one decimal: the list, the review, the Photo tab's figures
and the coach's words). Chromium at 390x844 and 844x390.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from test_web_browser import expect, new_game, send_events

from cribbage.game import Settings
from cribbage.game.simulate import random_game

pytestmark = pytest.mark.browser



def in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + 40 <= size["height"] and box["x"] < size["width"]


def test_the_chart_opens_under_its_game_and_follows_it(phone: Any) -> None:
    page = phone
    for k in range(6):  # older games fill the list
        page.evaluate("(k) => Crib.api('POST', '/api/games', {players: [`Old${k}`, 'Pat']})", k)
    new_game(page, names=("Sam", "Tia"))
    page.click("#tabs >> text=History")
    game = page.evaluate("() => Crib.app.gameId")
    row = page.locator(f'#games li[data-game="{game}"]')
    row.locator("button", has_text="Chart").click()
    chart = row.locator("svg.chart")
    expect(chart).to_contain_text("Sam 0")
    assert in_view(page, chart), chart.bounding_box()
    # the live game moves on (sent from elsewhere, as another phone or the camera would): it follows
    page.evaluate("(g) => Crib.api('POST', `/api/games/${g}/events`, "
                  "{type: 'adjust', seat: 'A', points: 5, reason: 'test'})", game)
    expect(chart).to_contain_text("Sam 5")
    # an older game's chart opens under that game, and the newer one's closes
    old = page.locator("#games li").nth(3)
    old.locator("button", has_text="Chart").click()
    expect(old.locator("svg.chart")).to_be_visible()
    expect(page.locator("#games svg.chart")).to_have_count(1)
    assert in_view(page, old.locator("svg.chart"))


def test_expected_points_have_one_decimal_in_every_view(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Bob"))
    _, events = random_game(Settings.from_json({"players": ["Ann", "Bob"]}), random.Random(8), max_deals=3)
    send_events(page, events)
    page.click("#tabs >> text=History")
    row = page.locator("#games li").first
    given = row.locator(".given")
    expect(given).to_contain_text("Given away by the discards (expected): Ann ")
    row.locator("button", has_text="Review").click()
    review = page.locator("#review")
    expect(review).to_contain_text("Deal 1")
    figures = re.findall(r"\d+\.\d+", given.text_content() + review.text_content())
    assert figures and all(re.fullmatch(r"\d+\.\d", f) for f in figures), figures
    # the list and the review say the same total for each player
    listed = re.findall(r"(Ann|Bob) (\d+\.\d)", given.text_content())
    total = review.locator(".review-total").text_content()
    for name, value in listed:
        assert f"{name} {value} over" in total, (listed, total)
    page.click("#tabs >> text=Photo")
    for card in ("5H", "5S", "JD", "QC", "2H", "9S"):
        page.click(f'#photo-picker button[data-card="{card}"]')
    page.click('#photo-throw button[data-role="dealer"]')
    first = page.locator("#photo-advice ol.discards li").first
    expect(first.locator(".figures")).to_have_text(re.compile(r"^hand \d+\.\d crib \d+\.\d total \d+\.\d$"))
