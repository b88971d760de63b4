"""The Photo tab in Chromium at a phone's size (390x844), as a player at a real table uses it:
every card read is kept (a photo of the six dealt says what to do with six), the starter may be
any card of the pack not in the hand, no starter counts the hand with each possible one, a new
or refused photo clears the last one, and the count shows right under Count, redrawn on every
press; no text overlaps another and every tap target is big enough at 320, 390 and 768 px.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import open_page
from test_web_browser import expect, photo_png
from test_web_browser_words import LAYOUT, box

pytestmark = pytest.mark.browser

SIX = [("2C", 330, 372, -8), ("3D", 400, 366, -4), ("4H", 470, 360, 0), ("9D", 540, 366, 4),
       ("KC", 610, 372, 8), ("5S", 680, 378, 12)]



@pytest.fixture
def page(page: Any) -> Any:
    """The page (conftest) on its Photo tab."""
    page.click("#tabs >> text=Photo")
    return page


def drawn(tmp_path: Path, cards: list[tuple[str, float, float, float]]) -> Path:
    cv2 = pytest.importorskip("cv2")
    from vision.synth.compose import drawn_table

    path = tmp_path / "table.png"
    cv2.imwrite(str(path), drawn_table(cards, width=190))
    return path


def read_photo(page: Any, path: Path) -> None:
    page.set_input_files("#photo-file", str(path))
    page.click("#photo-form button.primary")
    expect(page.locator("#photo-view img")).to_be_visible()
    expect(page.locator("#photo-msg")).not_to_have_text("Reading…")


def plain_photo(page: Any, tmp_path: Path) -> None:
    """A photo with no card in it: the cards are then tapped in by hand."""
    path = tmp_path / "plain.png"
    path.write_bytes(photo_png())
    read_photo(page, path)


def tap_cards(page: Any, *cards: str) -> None:
    for card in cards:
        page.click(f'#photo-picker button[data-card="{card}"]')
    expect(page.locator("#photo-cards [data-card]:not([data-card=''])")).to_have_count(len(cards))


# --- 1. every card read is kept -----------------------------------------------------------------


def test_a_photo_of_the_six_dealt_keeps_all_six_and_says_what_to_do(page: Any,
                                                                    tmp_path: Path) -> None:
    read_photo(page, drawn(tmp_path, SIX))
    cards = page.locator("#photo-cards [data-card]:not([data-card=''])")
    expect(cards).to_have_count(6)
    assert sorted(cards.evaluate_all("(es) => es.map((e) => e.dataset.card)")) == sorted(
        c for c, *_ in SIX)
    expect(page.locator("#photo-msg")).to_contain_text(
        "6 cards: choose the two to throw, or the starter and four")
    # Count with six says so in words, and the two thrown can be taken out
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("a hand is four cards")
    for thrown in ("2C", "KC"):
        page.click(f'#photo-cards [data-card="{thrown}"]')
        page.click("#photo-remove")
    expect(cards).to_have_count(4)
    page.select_option("#photo-starter", "6C")  # a starter not in the photo
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("8:")  # 3 4 9 5 with 6: two fifteens, run of 4


def test_more_cards_than_a_hand_are_all_shown_and_said(page: Any, tmp_path: Path) -> None:
    read_photo(page, drawn(tmp_path, [*SIX, ("7H", 750, 384, 16)]))
    expect(page.locator("#photo-cards [data-card]:not([data-card=''])")).to_have_count(7)
    msg = page.locator("#photo-msg")
    expect(msg).to_contain_text("7 cards")
    expect(msg).to_contain_text("more than a hand")


# --- 2. the starter: any card not in the hand --------------------------------------------------


def test_the_starter_may_be_a_card_not_in_the_photo(page: Any, tmp_path: Path) -> None:
    plain_photo(page, tmp_path)
    tap_cards(page, "5C", "5D", "5H", "JS")
    values = page.locator("#photo-starter option").evaluate_all(
        "(es) => es.map((e) => e.value).filter(Boolean)")
    assert values[:4] == ["5C", "5D", "5H", "JS"]  # the photo's cards first
    assert len(values) == 52 and len(set(values)) == 52  # then the rest of the pack
    page.select_option("#photo-starter", "5S")
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("29:")
    expect(page.locator("#photo-result")).to_contain_text("his nobs is twenty-nine")


# --- 3. no starter: the count with each one -------------------------------------------------------


def test_with_no_starter_the_count_for_each_possible_starter(page: Any, tmp_path: Path) -> None:
    plain_photo(page, tmp_path)
    tap_cards(page, "5C", "5D", "5H", "JS")
    expect(page.locator("#photo-starter")).to_have_value("")
    page.click("#photo-count")
    result = page.locator("#photo-result")
    expect(result).to_contain_text("each possible starter")
    rows = result.locator("tr[data-points]")
    expect(rows).to_have_count(6)
    expect(rows.nth(0)).to_have_attribute("data-points", "29")
    assert rows.nth(0).locator("[data-card]").evaluate_all(
        "(es) => es.map((e) => e.dataset.card)") == ["5S"]
    jacks = result.locator('tr[data-points="22"] [data-card]')
    assert sorted(jacks.evaluate_all("(es) => es.map((e) => e.dataset.card)")) == ["JC", "JD", "JH"]
    assert result.locator("tr[data-points] [data-card]").count() == 48  # every card not in the hand
    expect(page.locator("#toast.bad")).to_have_count(0)
    small = page.evaluate(LAYOUT)["small"]
    assert [s for s in small if "data-card" in s or "button.card" in s] == [], small  # 40 px starters
    result.locator('tr[data-points] button[data-card="5S"]').click()  # tap a starter: the full count
    expect(page.locator("#photo-starter")).to_have_value("5S")
    expect(result).to_contain_text("29: ")
    expect(result.locator("tr[data-points]")).to_have_count(0)


def test_five_cards_and_no_starter_count_each_as_the_starter(page: Any, tmp_path: Path) -> None:
    plain_photo(page, tmp_path)
    tap_cards(page, "2C", "3D", "4H", "9D", "KC")
    page.click("#photo-count")
    result = page.locator("#photo-result")
    expect(result).to_contain_text("each of the five")
    row = result.locator('tr[data-points="7"]')
    expect(row.locator("[data-card]")).to_have_count(5)
    expect(result.locator("tr[data-points]")).to_have_count(1)


# --- 4. a new or refused photo clears the last one ----------------------------------------------


def test_a_new_or_refused_photo_clears_the_last_one(page: Any, tmp_path: Path) -> None:
    plain_photo(page, tmp_path)
    tap_cards(page, "5C", "5D", "5H", "JS", "5S")
    page.select_option("#photo-starter", "5S")
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("29:")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a photo")
    page.set_input_files("#photo-file", str(notes))  # chosen: the last photo goes at once
    expect(page.locator("#photo-view")).to_be_hidden()
    expect(page.locator("#photo-cards [data-card]:not([data-card=''])")).to_have_count(0)
    expect(page.locator("#photo-result")).to_be_empty()
    tap_cards(page, "AS", "2S", "3S", "4S")
    page.click("#photo-form button.primary")  # refused: nothing of before stays
    expect(page.locator("#toast.bad")).to_be_visible()
    expect(page.locator("#photo-view")).to_be_hidden()
    expect(page.locator("#photo-view img")).to_have_count(0)
    expect(page.locator("#photo-cards [data-card]:not([data-card=''])")).to_have_count(0)
    expect(page.locator("#photo-result")).to_be_empty()
    expect(page.locator("#photo-msg")).to_contain_text("not read")


# --- 5. the count shows under Count, redrawn on every press ------------------------------------


def test_the_count_shows_under_the_button_and_every_press_redraws_it(page: Any,
                                                                    tmp_path: Path) -> None:
    plain_photo(page, tmp_path)
    tap_cards(page, "5C", "5D", "5H", "JS", "5S")
    page.select_option("#photo-starter", "5S")
    page.click("#photo-count")
    result = page.locator("#photo-result")
    expect(result).to_contain_text("29:")
    count_btn, picker = box(page.locator("#photo-count")), box(page.locator("#photo-picker"))
    got = box(result)
    assert count_btn["y"] + count_btn["height"] <= got["y"] < picker["y"]
    tabs = box(page.locator("#tabs"))
    assert tabs["y"] + tabs["height"] <= got["y"] <= 844 - 40, got  # on screen, under the header
    # the same count again: the page says it is counting, then shows the count anew
    page.evaluate("""() => {
        window.seen = [];
        const out = document.querySelector("#photo-result");
        new MutationObserver(() => window.seen.push(out.textContent))
          .observe(out, { childList: true, subtree: true, characterData: true });
    }""")
    page.click("#photo-count")
    expect(result).to_contain_text("29:")
    page.wait_for_function("() => window.seen.length >= 2 && window.seen.at(-1).includes('29:')")
    seen = page.evaluate("() => window.seen")
    assert any("Counting" in s for s in seen), seen


# --- layout ----------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [320, 390, 768])
def test_the_photo_tab_has_no_overlap_and_big_tap_targets(browser: Any, server: str,
                                                          tmp_path: Path, width: int) -> None:
    page = open_page(browser, server, width=width)
    try:
        page.click("#tabs >> text=Photo")
        plain_photo(page, tmp_path)
        tap_cards(page, "5C", "5D", "5H", "JS", "2C")
        page.click('#photo-cards [data-card="2C"]')  # selected: Take out shows
        expect(page.locator("#photo-remove")).to_be_visible()
        for starter in ("", "JS"):  # the table of starters, then one count
            page.select_option("#photo-starter", starter)
            page.click("#photo-count")
            expect(page.locator("#photo-result")).not_to_contain_text("Counting")
            page.evaluate("() => { window.scrollTo(0, 0); document.querySelector('#toast').hidden = true; }")
            got = page.evaluate(LAYOUT)
            assert got["overlaps"] == [], (width, starter, got["overlaps"])
            assert got["small"] == [], (width, starter, got["small"])
            assert not got["wide"], (width, starter, "the page scrolls sideways")
        assert page.errors == []
    finally:
        page.context.close()
