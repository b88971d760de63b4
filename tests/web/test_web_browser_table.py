"""The Table and Play tabs at a real table, in Chromium at a phone's size (390x844): the cut for
deal, a misdeal and a new deal as buttons (refusals in players' words); the last count itemised;
goes a correction set aside named with what to check; board holes big enough to see; a card
picker whose every key is a finger wide and shows its whole label; and, at 320, 390 and 768 px
wide, no text over another element and every tap target on the Table, Play, Fix, History and
New tabs at least 40 px each way.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import open_page
from test_web_browser import expect, new_game, send_events
from test_web_browser_words import LAYOUT, TO_THE_SHOW

pytestmark = pytest.mark.browser




def score(page: Any, side: str) -> Any:
    return page.locator(f'#scores .score[data-side="{side}"] .pts')


def cut(page: Any, *cards: str) -> None:
    page.click('#actions button[data-act="cut"]')
    for card in cards:
        page.click(f'#picker button[data-card="{card}"]')
    page.click("#send")


# --- 1. the cut for deal, a misdeal, a new deal ---------------------------------------------


def test_the_cut_for_deal_lower_deals_and_equal_cuts_cut_again(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    expect(page.locator("#next")).to_contain_text("cut for deal")
    page.click('#actions button[data-act="cut"]')
    page.click('#picker button[data-card="4H"]')
    expect(page.locator("#picked")).to_contain_text("Ann 4♥")  # each card is a player's cut
    expect(page.locator("#picked")).to_contain_text("Bob ?")
    page.click('#picker button[data-card="4S"]')
    page.click("#send")
    nxt = page.locator("#next")
    expect(nxt).to_contain_text("Ann cut 4♥, Bob cut 4♠: equal lowest cuts, so Ann and Bob cut again.")
    assert page.evaluate("Crib.app.state.phase") == "cut"
    expect(page.locator("#picked .card")).to_have_count(2)  # two empty slots for the new cut
    cut(page, "9C", "3D")
    expect(nxt).to_contain_text("Ann cut 9♣, Bob cut 3♦: Bob cut lower and deals first.")
    expect(nxt).to_contain_text("turn the starter (Bob deals)")
    page.click("#tabs >> text=Table")
    expect(page.locator("#dealer")).to_have_text("Bob")
    expect(page.locator("#cut-said")).to_have_text(
        "Ann cut 9♣, Bob cut 3♦: Bob cut lower and deals first.")


def test_a_cut_with_a_card_missing_is_refused_in_words(page: Any) -> None:
    new_game(page, names=("Ann", "Bob", "Cy"), variant="three-player")
    cut(page, "9C", "3D")
    expect(page.locator("#toast.bad")).to_have_text("Tap a cut card for each player: Cy's is missing")
    assert page.evaluate("Crib.app.state.events") == 0


def test_a_misdeal_pegs_the_penalty_and_the_same_dealer_deals_again(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    send_events(page, [{"type": "dealer", "seat": "A"}])
    page.click('#actions button[data-act="misdeal"]')
    expect(page.locator("#penalty-row")).to_contain_text("to Bob")
    expect(page.locator("#penalty")).to_have_value("2")
    page.click("#send")
    expect(page.locator("#toast")).to_have_text("Recorded: Bob 0 → 2")
    assert page.evaluate("[Crib.app.state.deal, Crib.app.state.dealer]") == [2, "A"]
    page.click('#actions button[data-act="misdeal"]')
    page.fill("#penalty", "0")  # a table that plays no penalty
    page.click("#send")
    expect(page.locator("#changed")).to_have_text("Recorded: no score changed")
    assert page.evaluate("[Crib.app.state.deal, Crib.app.state.scores.B]") == [3, 2]
    send_events(page, [{"type": "starter", "card": "5D"}])
    page.click('#actions button[data-act="misdeal"]')
    page.click("#send")
    expect(page.locator("#toast.bad")).to_have_text(
        "The cards are in play: a misdeal or a new deal is called before the starter is turned.")


def test_a_new_deal_checks_whose_deal_it_is(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    send_events(page, [{"type": "dealer", "seat": "A"}])
    page.click('#seat-pick button[data-seat="B"]')
    page.click('#actions button[data-act="new-deal"]')
    page.click("#send")
    expect(page.locator("#toast.bad")).to_contain_text("It is Ann's deal, not Bob's")
    page.click('#seat-pick button[data-seat="A"]')
    page.click('#actions button[data-act="new-deal"]')
    page.click("#send")
    expect(page.locator("#changed")).to_have_text("Recorded: no score changed")
    assert page.evaluate("Crib.app.state.events") == 2


# --- 2. the last count, itemised -------------------------------------------------------------


def test_the_table_itemises_the_last_count_and_a_crib_of_nothing_replaces_it(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    send_events(page, [*TO_THE_SHOW, {"type": "show", "seat": "A", "cards": ["JC", "5H", "4H", "6D"]}])
    page.click("#tabs >> text=Table")
    counted = page.locator("#counted")
    expect(counted.locator("h2")).to_have_text("Ann's hand: 16")
    expect(counted).to_contain_text("with the starter 5♦: J♣ 5♥ 4♥ 6♦")
    items = counted.locator("li")
    assert items.all_text_contents() == [
        "fifteen: J♣ 5♥ = 2", "fifteen: J♣ 5♦ = 2", "fifteen: 5♥ 4♥ 6♦ = 2",
        "fifteen: 4♥ 6♦ 5♦ = 2", "pair: 5♥ 5♦ = 2", "run of three: 4♥ 5♥ 6♦ = 3",
        "run of three: 4♥ 5♦ 6♦ = 3",
    ]

    # another deal: with a king turned, the crib scores nothing and its count replaces Bob's
    new_game(page, names=("Ann", "Bob"))
    events = [dict(e) for e in TO_THE_SHOW]
    events[1] = {"type": "starter", "card": "KD"}
    send_events(page, [*events, {"type": "show", "seat": "A"}, {"type": "show", "seat": "B"}])
    page.click("#tabs >> text=Table")
    expect(counted.locator("h2")).to_have_text("Bob's hand: 6")
    expect(items).to_have_count(3)
    send_events(page, [{"type": "crib", "cards": ["AS", "2S", "6S", "TS"]}])
    expect(counted.locator("h2")).to_have_text("Bob's crib: nineteen (nothing)")
    expect(items).to_have_count(0)
    expect(counted).to_contain_text("with the starter K♦: A♠ 2♠ 6♠ 10♠")


def test_the_count_keeps_its_items_hidden_while_muggins_is_open(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"), claim=True, muggins=True)
    send_events(page, [*TO_THE_SHOW, {"type": "show", "seat": "A", "claim": 10}])
    page.click("#tabs >> text=Table")
    counted = page.locator("#counted")
    expect(counted.locator("h2")).to_have_text("Ann's hand: claimed 10, open to muggins")
    expect(counted.locator("li")).to_have_count(0)
    page.locator('#muggins button[data-muggins="B"]').click()
    expect(counted.locator("h2")).to_have_text("Ann's hand: 16")
    expect(counted.locator("li")).to_have_count(7)
    expect(counted).to_contain_text("claimed 10")


# --- 3. goes set aside by a correction --------------------------------------------------------


def test_goes_set_aside_are_named_with_what_to_check(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    plays = [("A", "5S"), ("B", "6D"), ("A", "8C"), ("B", "KD")]
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "KH"},
                       *({"type": "play", "seat": s, "card": c} for s, c in plays),
                       {"type": "go", "seat": "A"}, {"type": "go", "seat": "B"}])
    page.click("#tabs >> text=Table")
    expect(page.locator("#aside")).to_be_hidden()
    send_events(page, [{"type": "correct", "event": 5,
                        "with": {"type": "play", "seat": "A", "card": "TC"}}])
    aside = page.locator("#aside")
    expect(aside).to_be_visible()
    assert aside.locator("li").all_text_contents() == [
        "Ann's go (event 7): Ann cannot say go: any card fits at a count of 0.",
        "Bob's go (event 8): Bob cannot say go out of turn: it is Ann's turn, and Ann cannot have "
        "passed (the count is 0, so any card fits).",
    ]
    expect(aside).to_contain_text("Check at the table: the count is 0 and Ann is to play.")
    expect(aside).to_contain_text("correct that card on the Fix tab")
    page.click("#tabs >> text=Fix")
    expect(page.locator("#fix-aside")).to_contain_text("Ann's go (event 7)")
    expect(page.locator('#events li[data-event="7"]')).to_contain_text("set aside")


def test_a_show_counted_with_a_misread_card_follows_its_correction(page: Any) -> None:
    """Ann counted 4 4 4 10♣ as the camera saw them; her 10 was the 10♥: correcting the card
    where it was laid carries into the show, and the Fix tab says so on the show."""
    new_game(page, names=("Ann", "Bob"))
    plays = [("A", "4S"), ("B", "5H"), ("A", "4H"), ("B", "5D"), ("A", "4D"), ("B", "9S"),
             ("A", "TC"), ("B", "2C")]
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "KH"},
                       *({"type": "play", "seat": s, "card": c} for s, c in plays),
                       {"type": "show", "seat": "A", "cards": ["4S", "4H", "4D", "TC"]},
                       {"type": "correct", "event": 9, "with": {"type": "play", "seat": "A", "card": "TH"}}])
    page.click("#tabs >> text=Fix")
    expect(page.locator('#events li[data-event="11"] .carried')).to_have_text(
        "counts 10♥ for 10♣, as corrected in the play")


def test_the_new_form_names_players_by_their_place_not_a_seat_letter(page: Any) -> None:
    page.click("#tabs >> text=New")
    page.select_option('#new-form select[name="variant"]', "four-player")
    labels = page.locator("#players label").all_text_contents()
    assert [t.strip() for t in labels] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    page.locator('#players input[name="player"]').nth(2).fill("")
    expect(page.locator("#partners")).to_have_text("Partners: Ann & Player 3 v Bob & Dan")  # session names


# --- 4. the board ------------------------------------------------------------------------------


def test_board_holes_and_pegs_are_big_enough_on_a_phone(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    send_events(page, [{"type": "dealer", "seat": "A"},
                       {"type": "adjust", "seat": "A", "points": 7, "reason": "t"}])
    page.click("#tabs >> text=Table")
    hole = page.locator("#h1-60")
    expect(hole).to_be_visible()
    for h in ("#h0-1", "#h1-60", "#h0-121"):
        b = page.locator(h).bounding_box()
        assert b is not None and min(b["width"], b["height"]) >= 6, (h, b)
    peg = page.locator("#peg-A-front")
    expect(peg).to_have_attribute("data-score", "7")
    b = peg.bounding_box()
    assert b is not None and min(b["width"], b["height"]) >= 9, b
    board = page.locator("#board-wrap svg").bounding_box()
    assert board is not None and board["width"] >= 370 and board["x"] + board["width"] <= 390


# --- 5. the card picker ---------------------------------------------------------------------

PICKER = """() => Array.from(document.querySelectorAll("#picker .pick")).map((b) => {
  const r = b.getBoundingClientRect(), range = document.createRange();
  range.selectNodeContents(b);
  const t = range.getBoundingClientRect();
  return { card: b.dataset.card, label: b.textContent, w: r.width, h: r.height,
           inside: t.left >= r.left - 0.5 && t.right <= r.right + 0.5 && t.top >= r.top - 0.5
             && t.bottom <= r.bottom + 0.5 && b.scrollWidth <= b.clientWidth };
})"""


@pytest.mark.parametrize("width", [320, 390, 768])
def test_every_picker_key_is_a_finger_wide_and_shows_its_whole_card(browser: Any, server: str,
                                                                   width: int) -> None:
    page = open_page(browser, server, width=width)
    try:
        new_game(page, names=("Ann", "Bob"))
        keys = page.evaluate(PICKER)
        assert len(keys) == 52 and len({k["label"] for k in keys}) == 52
        labels = {k["card"]: k["label"] for k in keys}
        assert (labels["TH"], labels["TD"], labels["TS"]) == ("10♥", "10♦", "10♠")
        small = [(k["card"], round(k["w"]), round(k["h"])) for k in keys if min(k["w"], k["h"]) < 40]
        assert small == [], (width, small)
        cut_off = [k["card"] for k in keys if not k["inside"]]
        assert cut_off == [], (width, cut_off)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.click('#actions button[data-act="dealer"]')  # still one tap a card
        page.click('#actions button[data-act="starter"]')
        page.click('#picker button[data-card="TD"]')
        expect(page.locator("#picked")).to_have_text("10♦")
        assert page.errors == []
    finally:
        page.context.close()


# --- 6. layout on every tab: no text over another element, tap targets 40 px each way ----------
# (the check is test_web_browser_words.LAYOUT)


@pytest.mark.parametrize("width", [320, 390, 768])
def test_every_tab_has_no_overlap_and_tap_targets_of_40_px(browser: Any, server: str,
                                                           width: int) -> None:
    page = open_page(browser, server, width=width)
    try:
        new_game(page, names=("Alexandra", "Bartholomew"))
        send_events(page, [*TO_THE_SHOW, {"type": "show", "seat": "A"}])  # a count on the table
        page.evaluate("document.querySelector('#toast').hidden = true")
        for tab in ("Table", "Play", "Fix", "History", "New"):
            page.click(f"#tabs >> text={tab}")
            if tab == "Fix":
                expect(page.locator("#events li").first).to_be_visible()
            if tab == "History":
                expect(page.locator("#games li").first).to_be_visible()
            page.evaluate("window.scrollTo(0, 0); document.querySelector('#toast').hidden = true")
            got = page.evaluate(LAYOUT)
            assert got["overlaps"] == [], (width, tab, got["overlaps"])
            assert got["small"] == [], (width, tab, got["small"])
            assert not got["wide"], (width, tab, "the page scrolls sideways")
        assert page.errors == []
    finally:
        page.context.close()
