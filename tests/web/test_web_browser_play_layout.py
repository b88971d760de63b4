"""The Play tab and the Table at a phone's size, upright and on its side (issue 37, polish):
the scores and the cards of the series on the Play tab, who laid each series card on the Table,
what is next and what was recorded in view after Send (never under the header), toasts over
the header and tabs only (never the board or the picker keys), the picker above the fold at
844x390, a mark at 61 on a 61-point game's board, a rematch at the end of a game, and labels
over a read photo readable on white cards. Chromium at 390x844 and 844x390.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import PLAY, expect, new_game, send_events, tap
from test_web_browser_photo import SIX, drawn, read_photo

pytestmark = pytest.mark.browser




def rect(page: Any, selector: str) -> dict[str, float]:
    return page.eval_on_selector(selector, "(e) => e.getBoundingClientRect().toJSON()")  # type: ignore[no-any-return]


def assert_in_view_below_the_bars(page: Any, selector: str) -> None:
    """Seen whole: below the sticky header and tabs, above the bottom of the screen."""
    bars = max(rect(page, "nav")["bottom"], rect(page, "header")["bottom"])
    got = rect(page, selector)
    bottom = page.viewport_size["height"] + 1
    assert got["height"] > 0 and got["top"] >= bars - 1 and got["bottom"] <= bottom, (selector, got, bars)


def assert_toast_covers_nothing(page: Any) -> None:
    """The toast lies over the header and tabs only: no picker key, no board, no Send under it."""
    toast = rect(page, "#toast")
    bars = max(rect(page, "nav")["bottom"], rect(page, "header")["bottom"])
    assert toast["height"] > 0 and toast["bottom"] <= bars + 1, (toast, bars)


TWO_LAID = [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"},
            {"type": "play", "seat": "A", "card": "JC"}, {"type": "play", "seat": "B", "card": "5S"}]
"""Bob deals; Ann lays J♣, Bob 5♠ for fifteen two."""


def test_the_play_tab_shows_scores_and_series_and_the_table_who_laid_each(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Bob"))
    send_events(page, TWO_LAID)
    board = page.locator("#play-board")
    expect(board.locator(".chip")).to_have_text(["Ann 0", "Bob 2"])
    expect(board).to_contain_text("count 15")
    expect(board.locator(".laid")).to_have_text(["J♣Ann", "5♠Bob"])
    assert_in_view_below_the_bars(page, "#play-board")
    page.click("#tabs >> text=Table")
    laid = page.locator("#series .laid")
    expect(laid).to_have_count(2)
    expect(laid.nth(0).locator(".card")).to_have_attribute("data-card", "JC")
    expect(laid.nth(0).locator("small")).to_have_text("Ann")
    expect(laid.nth(1).locator("small")).to_have_text("Bob")


def test_after_send_what_is_next_and_what_was_recorded_are_in_view(phone: Any) -> None:
    page = phone
    new_game(page, names=("Sam", "Tia"))
    tap(page, "dealer", "B")
    tap(page, cards=("5D",))
    for action, seat, cards in PLAY[:4]:
        tap(page, action if action == "go" else None, seat, cards)
        expect(page.locator("#toast")).to_be_visible()
        assert_toast_covers_nothing(page)
        assert_in_view_below_the_bars(page, "#next")
        assert_in_view_below_the_bars(page, "#play-said")
    expect(page.locator("#play-said")).to_have_text("Recorded: no score changed")  # 10♦ makes 30
    # a refusal's toast covers nothing either
    page.click('#seat-pick button[data-seat="A"]')
    page.click('#actions button[data-act="play"]')
    page.click('#picker button[data-card="JC"]')  # laid already
    page.click("#send")
    expect(page.locator("#toast.bad")).to_be_visible()
    assert_toast_covers_nothing(page)


def test_the_picker_starts_above_the_fold(phone: Any) -> None:
    page = phone
    new_game(page, names=("Sam", "Tia"))
    height = page.viewport_size["height"]
    for events in ([{"type": "dealer", "seat": "B"}],  # the longest Next line: before the starter
                   [{"type": "starter", "card": "5D"}, {"type": "play", "seat": "A", "card": "JC"}]):
        send_events(page, events)
        page.evaluate("() => window.scrollTo(0, 0)")
        key = rect(page, '#picker button[data-card="AS"]')
        assert key["bottom"] <= height, (key, height)
        keys = page.eval_on_selector_all(
            "#picker .pick", "(es) => es.map((e) => e.getBoundingClientRect().width)")
        assert min(keys) >= 40, min(keys)


def test_the_table_tab_sits_the_board_beside_the_scores_on_a_phone_on_its_side(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Bob"))
    send_events(page, TWO_LAID)
    page.click("#tabs >> text=Table")
    expect(page.locator("#scores .score")).to_have_count(2)
    expect(page.locator("#board-wrap svg.board")).to_be_visible()
    page.evaluate("() => window.scrollTo(0, 0)")
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    scores, board = rect(page, "#scores"), rect(page, "#board-wrap svg.board")
    assert scores["bottom"] <= height, (scores, height)  # the scores above the fold either way
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    if width < height:  # upright: the board under the scores, the page's width
        assert board["top"] >= scores["bottom"] and board["width"] >= width - 20, (board, scores)
        return
    # on its side: the board beside the scores, whole in view at the top of the tab
    assert board["left"] >= scores["right"] and board["top"] < scores["bottom"], (board, scores)
    assert board["bottom"] <= height and board["height"] >= 150, (board, height)
    assert_in_view_below_the_bars(page, "#spoken")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # and it stays there
    assert_in_view_below_the_bars(page, "#board-wrap svg.board")


def test_a_61_point_game_has_a_mark_at_61_and_ends_with_a_rematch(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Bob"), variant="three-player")
    page.click("#tabs >> text=New")
    page.select_option('#new-form select[name="variant"]', "five-card")
    page.locator('#players input[name="player"]').nth(0).fill("Ann")
    page.locator('#players input[name="player"]').nth(1).fill("Bob")
    page.select_option('#new-form select[name="target"]', "61")
    page.select_option('#new-form select[name="counting"]', "claim")
    page.click("#new-form button.primary")
    expect(page.locator("#next")).to_contain_text("choose the dealer")
    old = page.evaluate("() => Crib.app.gameId")
    page.click("#tabs >> text=Table")
    expect(page.locator("#h0-61")).to_have_class(re.compile(r"\bgoal\b"))
    expect(page.locator("#h1-61")).to_have_class(re.compile(r"\bgoal\b"))
    assert page.locator("svg.board .goal").count() == 2
    send_events(page, [{"type": "dealer", "seat": "A"},
                       {"type": "adjust", "seat": "B", "points": 61, "reason": "test"}])
    winner = page.locator("#winner")
    expect(winner).to_contain_text("Bob wins")
    winner.locator("button.rematch").click()
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#next")).to_contain_text("choose the dealer")
    new = page.evaluate("() => Crib.app.gameId")
    assert new != old
    settings = page.evaluate("() => Crib.app.state.settings")
    assert settings["players"] == ["Ann", "Bob"] and settings["variant"] == "five-card"
    assert settings["target"] == 61 and settings["counting"] == "claim"
    assert page.evaluate("() => Crib.app.state.scores") == {"A": 0, "B": 0}
    # the Play tab offers it too, at the end of the game
    send_events(page, [{"type": "dealer", "seat": "A"},
                       {"type": "adjust", "seat": "A", "points": 61, "reason": "test"}])
    expect(page.locator("#next button.rematch")).to_be_visible()


def test_labels_over_a_read_photo_are_dark_in_a_light_halo(phone: Any, tmp_path: Path) -> None:
    page = phone
    page.click("#tabs >> text=Photo")
    read_photo(page, drawn(tmp_path, SIX))
    label = page.locator("#photo-view svg text").first
    expect(label).to_be_visible()
    style = label.evaluate("""(t) => { const s = getComputedStyle(t);
      return {fill: s.fill, stroke: s.stroke, width: parseFloat(s.strokeWidth),
              size: parseFloat(s.fontSize)}; }""")

    def luminance(colour: str) -> float:
        r, g, b = (int(v) for v in re.findall(r"\d+", colour)[:3])
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

    assert luminance(style["fill"]) < 0.3 and luminance(style["stroke"]) > 0.9, style
    assert style["width"] >= 0.15 * style["size"], style  # a halo, not a hairline
