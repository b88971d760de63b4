"""Issue 45 on the page, in Chromium at 390x844 and 844x390: muggins offered where the next count
is typed and said once it passed, Undo saying what it undid and asking before undoing another
phone's event, the Fix tab's points in the Table's words, the crib labelled as the crib, the
edit dialog, the New tab's names and the Adjust box.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import expect, new_game, send_events, tap
from webhelpers import DEAL

pytestmark = pytest.mark.browser


def test_muggins_is_offered_on_the_play_tab_and_says_when_the_chance_passed(phone: Any) -> None:
    page = phone
    new_game(page, names=("Leo", "Mia"), claim=True, muggins=True)
    send_events(page, DEAL[:11])  # Mia deals; the play is over
    tap(page, "show", "A", claim=4)  # Leo's hand is 16
    chance = page.locator("#play-muggins")
    expect(chance).to_be_visible()
    expect(chance).to_contain_text("Leo claimed 4 for the hand")
    expect(chance).to_contain_text("the chance passes when the next count is sent")
    expect(chance.locator('button[data-muggins="B"]')).to_be_visible()
    tap(page, "show", "B", claim=6)  # Mia counts her own: the chance on Leo's hand is gone
    expect(chance).to_contain_text("Mia claimed 6 for the hand")
    expect(chance).not_to_contain_text("Leo claimed")
    expect(page.locator("#play-missed")).to_have_text(
        "The chance for muggins passed when the next count was sent: Leo's hand: 12 missed "
        "(claimed 4 of 16)")


def test_muggins_called_on_the_play_tab_is_not_said_to_have_passed(phone: Any) -> None:
    page = phone
    new_game(page, names=("Leo", "Mia"), claim=True, muggins=True)
    send_events(page, DEAL[:11])
    tap(page, "show", "A", claim=4)
    page.locator('#play-muggins button[data-muggins="B"]').click()
    expect(page.locator("#play-muggins")).to_be_hidden()
    expect(page.locator("#play-missed")).to_be_hidden()


def test_undo_says_what_it_undid_and_asks_for_another_phones_event(phone: Any, browser: Any,
                                                                   server: str) -> None:
    page = phone
    new_game(page, names=("Ann", "Bob"))
    send_events(page, DEAL[:2])
    tap(page, None, "A", ("JC",))
    page.click("#undo")
    expect(page.locator("#play-said")).to_have_text("Undid: Ann laid J♣ (no score changed)")
    # another phone lays a card: this one asks before undoing it
    other = browser.new_context().new_page()
    other.goto(server)
    other.wait_for_function("() => document.querySelector('#scores .score') !== null")
    send_events(other, [{"type": "play", "seat": "A", "card": "4C"}])
    expect(page.locator("#series")).to_contain_text("4♣")
    asked: list[str] = []
    answers = [False, True]  # no, then yes: the page is held on each question until it is answered

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if answers.pop(0):
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    page.click("#undo")
    page.click("#undo")
    expect(page.locator("#play-said")).to_have_text("Undid: Ann laid 4♣ (no score changed)")
    expect(page.locator("#series")).not_to_contain_text("4♣")
    # asked twice, the same question: the first answer (no) undid nothing, the second did
    assert len(asked) == 2 and asked[0] == asked[1], asked
    assert re.fullmatch(r"Undo #5 Ann laid 4♣\? It was not sent from this phone\.", asked[0]), asked
    page.click("#tabs >> text=Fix")
    expect(page.locator('#events li[data-event="6"]')).to_contain_text("Undo")
    expect(page.locator("#events li")).to_have_count(6)  # one undo of Ann's J♣, one of 4♣
    other.context.close()


def test_the_fix_tab_says_a_31_for_the_game_as_the_table_does(phone: Any) -> None:
    page = phone
    page.click("#tabs >> text=New")
    page.select_option('#new-form select[name="target"]', "61")
    new_game(page, names=("Ann", "Dee"))
    send_events(page, [{"type": "dealer", "seat": "B"},
                       {"type": "adjust", "seat": "B", "points": 60, "reason": "test"},
                       {"type": "starter", "card": "2C"},
                       {"type": "play", "seat": "A", "card": "KS"},
                       {"type": "play", "seat": "B", "card": "QH"},
                       {"type": "play", "seat": "A", "card": "TS"},
                       {"type": "play", "seat": "B", "card": "AH"}])
    page.click("#tabs >> text=Table")
    expect(page.locator("#spoken")).to_have_text("Dee: thirty-one for two, and game")
    page.click("#tabs >> text=Fix")
    row = page.locator('#events li[data-event="7"]')
    expect(row).to_contain_text("#7 Dee laid A♥")
    expect(row.locator(".pts")).to_have_text("Dee: thirty-one for two, and game")


def test_a_crib_is_labelled_as_the_crib_on_the_table(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Leo"))
    send_events(page, DEAL)
    page.click("#tabs >> text=Table")
    expect(page.locator("#spoken")).to_have_text(
        "Leo's crib: fifteen two, fifteen four, fifteen six and fifteen eight")


def test_the_edit_dialog_starts_empty_and_greys_out_cards_played(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Gus"))
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "7H"},
                       {"type": "play", "seat": "A", "card": "3S"},
                       {"type": "play", "seat": "B", "card": "KD"}])
    page.click("#tabs >> text=Fix")
    page.locator('#events li[data-event="3"] button.edit').click()
    expect(page.locator("#edit-cards")).to_have_value("")
    expect(page.locator("#edit-picked")).to_have_text(re.compile(r"Now: 3♠"))
    expect(page.locator('#edit-picker button[data-card="KD"]')).to_have_class(re.compile(r"\bseen\b"))
    expect(page.locator('#edit-picker button[data-card="7H"]')).to_have_class(re.compile(r"\bseen\b"))
    expect(page.locator('#edit-picker button[data-card="3S"]')).not_to_have_class(re.compile(r"\bseen\b"))
    expect(page.locator('#edit-picker button[data-card="4S"]')).not_to_have_class(re.compile(r"\bseen\b"))
    page.click('#edit-picker button[data-card="4S"]')
    expect(page.locator("#edit-cards")).to_have_value("4S")
    page.click("#edit-form button.primary")
    expect(page.locator('#events li[data-event="5"]')).to_contain_text("Correction of #3: Ann laid 4♠")


def test_the_new_tab_offers_the_companions_names(phone: Any) -> None:
    page = phone
    page.click("#tabs >> text=New")
    names = page.locator('#players input[name="player"]')
    expect(names).to_have_count(2)
    assert [names.nth(i).input_value() for i in range(2)] == ["Ann", "Bob"]
    page.select_option('#new-form select[name="variant"]', "four-player")
    expect(names).to_have_count(4)
    assert [names.nth(i).input_value() for i in range(4)] == ["Ann", "Bob", "Cat", "Dan"]


def test_the_adjust_box_starts_afresh(phone: Any) -> None:
    page = phone
    new_game(page, names=("Ann", "Bob"))
    page.click("#tabs >> text=Fix")
    form = page.locator("#adjust")
    form.locator('input[name="points"]').fill("5")
    form.locator('input[name="reason"]').fill("a peg knocked out")
    form.locator("button").click()
    expect(page.locator("#changed")).to_have_text(re.compile(r"^Adjusted: Ann 0 → 5"))
    expect(form.locator('input[name="points"]')).to_have_value("1")
    expect(form.locator('input[name="reason"]')).to_have_value("")
