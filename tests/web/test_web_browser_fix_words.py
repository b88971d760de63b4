"""The Fix tab in Chromium at 390x844 and 844x390: every event in players' words, cards as 7♥
(never a code or JSON: issue 37, defect 5), numbered once, points as the table says them ("last
card for one"), and the edit dialog with a card picker and no player box for a starter.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import expect, new_game, send_events

pytestmark = pytest.mark.browser

CODE = re.compile(r"\b[A2-9TJQK][SHDC]\b|[{}\"]")



def test_the_fix_tab_says_each_event_in_players_words(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Gus"))
    send_events(page, [
        {"type": "cut", "cards": {"A": "9S", "B": "4H"}},  # Gus cut lower and deals
        {"type": "starter", "card": "7H"},
        {"type": "play", "seat": "A", "card": "KS"}, {"type": "play", "seat": "B", "card": "QD"},
        {"type": "play", "seat": "A", "card": "9C"}, {"type": "go", "seat": "B"},
        {"type": "go", "seat": "A"}, {"type": "play", "seat": "B", "card": "8C"},
    ])
    page.click("#tabs >> text=Fix")
    events = page.locator("#events")
    expect(page.locator('#events li[data-event="1"]')).to_contain_text("#1 Ann cut 9♠, Gus cut 4♥")
    expect(page.locator('#events li[data-event="3"]')).to_contain_text("Ann laid K♠")
    expect(events).to_contain_text("Ann: last card for one")  # as the Table says it, not "+1 go"
    text = events.inner_text()
    assert not CODE.search(text), text
    assert "#1 " in text and "1.#1" not in text.replace("\n", "")
    style = page.evaluate("() => getComputedStyle(document.querySelector('#events')).listStyleType")
    assert style == "none"  # each entry numbered once, by its own #id


def test_a_refused_card_is_said_as_a_card(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Gus"))
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "7H"},
                       {"type": "play", "seat": "A", "card": "KS"}])
    page.click("#tabs >> text=Play")
    page.click('#seat-pick button[data-seat="B"]')
    page.click('#actions button[data-act="play"]')
    page.click('#picker button[data-card="KS"]')
    page.click("#send")
    toast = page.locator("#toast.bad")
    expect(toast).to_contain_text("K♠")
    assert not CODE.search(toast.inner_text()), toast.inner_text()


def test_the_edit_dialog_picks_a_card_and_has_no_player_for_a_starter(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Gus"))
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "7H"}])
    page.click("#tabs >> text=Fix")
    page.locator('#events li[data-event="2"] button.edit').click()
    expect(page.locator("#edit")).to_be_visible()
    expect(page.locator("#edit-seat-l")).to_be_hidden()  # a starter has no player
    expect(page.locator("#edit-picked")).to_contain_text("7♥")
    page.click('#edit-picker button[data-card="JH"]')
    expect(page.locator("#edit-cards")).to_have_value("JH")
    expect(page.locator("#edit-preview")).to_contain_text("Gus 0 → 2")  # his heels
    key = page.locator('#edit-picker button[data-card="JH"]').bounding_box()
    assert key is not None and key["width"] >= 40 and key["height"] >= 40
    page.click("#edit-form button.primary")
    expect(page.locator("#changed")).to_have_text("Corrected #2: Gus 0 → 2")


def test_a_tab_opens_at_its_top(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Gus"))
    page.click("#tabs >> text=Play")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")
    page.click("#tabs >> text=Table")
    page.wait_for_function("() => window.scrollY === 0")
    expect(page.locator("#scores .score .name").first).to_be_in_viewport()
