"""The deal review from the page (issue 37, defect 4): each player's six dealt and the two thrown
entered on the Play tab before the starter ("My six", "Thrown"), the deal played and counted by
tapping, and History offers the coach's review of it. Chromium at 390x844 and 844x390.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import PLAY, expect, new_game, send_events, tap
from webhelpers import DEAL

pytestmark = pytest.mark.browser

SIX = {"A": ("JC", "5H", "4H", "6D", "2C", "3S"), "B": ("5S", "TD", "9C", "9H", "QH", "KS")}
THROWN = {"A": ("2C", "3S"), "B": ("QH", "KS")}



def test_my_six_and_the_two_thrown_give_the_deal_review(phone: Any) -> None:
    page = phone
    new_game(page)
    tap(page, "dealer", "B")
    expect(page.locator("#next")).to_contain_text("My six")
    hand = page.locator('#actions button[data-act="hand"]')
    expect(hand).to_have_text("My six")
    for seat in "AB":
        tap(page, "hand", seat, SIX[seat])
        # the page goes on to the two thrown, for the same player
        expect(page.locator('#actions button.on')).to_have_attribute("data-act", "discard")
        tap(page, None, seat, THROWN[seat])
    tap(page, "starter", cards=("5D",))
    expect(hand).to_be_hidden()  # only before the starter
    for action, seat, cards in PLAY:
        tap(page, action if action == "go" else None, seat, cards)
    tap(page, cards=())  # Alice's hand: the four she laid
    tap(page, cards=())
    tap(page, cards=THROWN["A"] + THROWN["B"])  # Bob's crib
    page.click("#tabs >> text=History")
    game = page.evaluate("() => Crib.app.gameId")
    row = page.locator(f'#games li[data-game="{game}"]')
    expect(row.locator(".given")).to_contain_text("Given away by the discards (expected): Alice")
    row.locator("button.review-btn").click()
    review = page.locator("#review")
    expect(review).to_contain_text("Alice kept J♣ 5♥ 4♥ 6♦ threw 2♣ 3♠")
    expect(review).to_contain_text("Bob kept 5♠ 10♦ 9♣ 9♥ threw Q♥ K♠")


def test_a_short_hand_is_refused_in_words(phone: Any) -> None:
    page = phone
    new_game(page, variant="five-card")
    tap(page, "dealer", "B")
    expect(page.locator('#actions button[data-act="hand"]')).to_have_text("My five")
    page.click('#seat-pick button[data-seat="A"]')
    page.click('#actions button[data-act="hand"]')
    page.click('#picker button[data-card="AS"]')
    page.click("#send")
    expect(page.locator("#toast.bad")).to_have_text("Tap the five cards dealt to Alice")


def open_known(page: Any) -> Any:
    """The History tab's "what is known" of the game on the page, opened."""
    page.click("#tabs >> text=History")
    game = page.evaluate("() => Crib.app.gameId")
    known = page.locator(f'#games li[data-game="{game}"] details.known')
    expect(known).to_be_attached()
    known.locator("summary").click()
    return known


def test_a_deal_without_my_six_says_what_is_known(phone: Any) -> None:
    """As a camera game: the kept hands (counted in the show) and the crib, but no throws apart."""
    page = phone
    new_game(page, names=("Ann", "Bob"))
    send_events(page, DEAL)
    known = open_known(page)
    expect(known).to_contain_text("Deal 1: Ann kept J♣ 5♥ 4♥ 6♦, Bob kept 5♠ 10♦ 9♣ 9♥; "
                                  "the crib held 2♣ 3♠ Q♥ K♠.")
    expect(known).to_contain_text("Who threw which crib cards is not known")


THREE_DEAL = [  # a three-player deal as a camera sends it: Cy deals, no cards dealt entered
    {"type": "dealer", "seat": "C"}, {"type": "starter", "card": "4S"},
    {"type": "play", "seat": "A", "card": "6C"}, {"type": "play", "seat": "B", "card": "2S"},
    {"type": "play", "seat": "C", "card": "5S"}, {"type": "play", "seat": "A", "card": "3S"},
    {"type": "play", "seat": "B", "card": "JS"}, {"type": "play", "seat": "C", "card": "AS"},
    {"type": "play", "seat": "A", "card": "4C"}, {"type": "play", "seat": "B", "card": "8D"},
    {"type": "play", "seat": "C", "card": "QD"}, {"type": "play", "seat": "A", "card": "TH"},
    {"type": "go", "seat": "B"}, {"type": "play", "seat": "B", "card": "TD"},
    {"type": "play", "seat": "C", "card": "9C"},
    {"type": "show", "seat": "A", "cards": ["4C", "TH", "3S", "6C"]},
    {"type": "show", "seat": "B", "cards": ["TD", "8D", "JS", "2S"]},
    {"type": "show", "seat": "C", "cards": ["QD", "AS", "5S", "9C"]},
    {"type": "crib", "cards": ["9D", "KD", "QH", "4D"]},
]


def test_history_of_a_three_player_game_names_my_five(phone: Any) -> None:
    """Three players are dealt five: History names the Play tab's button, My five, not My six."""
    page = phone
    new_game(page, names=("Ann", "Bob", "Cy"), variant="three-player")
    send_events(page, [{"type": "dealer", "seat": "C"}])
    expect(page.locator('#actions button[data-act="hand"]')).to_have_text("My five")
    send_events(page, THREE_DEAL[1:])
    known = open_known(page)
    expect(known).to_contain_text("Deal 1: Ann kept 4♣ 10♥ 3♠ 6♣, Bob kept 10♦ 8♦ J♠ 2♠, "
                                  "Cy kept Q♦ A♠ 5♠ 9♣; the crib held 9♦ K♦ Q♥ 4♦.")
    expect(known).to_contain_text("(My five, as the Play tab's button says)")
    expect(known).not_to_contain_text("My six")
