"""A card face up on the table before the camera's first look (a card left out, an ace printed
on a blackjack felt) was never seen laid: it is never pegged, never asked about, and never taken
as the first card of the play to find the dealer. It is said to be left be; laid somewhere in
play, a card counts as any other."""

from __future__ import annotations

import pytest

from tests.track.test_waits import PLAY, STARTER, Drawn

PRINTED = ("AS", 580, 180)
"""An ace printed on the felt, beside Ann's row (seat A, the bottom half), where no card is laid."""


def played(dealer: str | None, before: tuple[tuple[str, int, int], ...]) -> Drawn:
    d = Drawn(dealer=dealer, before=before)
    d.lay(*STARTER)
    for card in PLAY:
        d.lay(*card)
    d.settle(12)
    return d


def events(d: Drawn) -> list[dict[str, object]]:
    return [{k: v for k, v in a.event.items() if k != "seen"} for a in d.follower.applied]


@pytest.mark.parametrize("dealer", ["A", None])
def test_a_card_printed_on_the_felt_is_left_be(dealer: str | None) -> None:
    alone, printed = played(dealer, ()), played(dealer, (PRINTED,))
    assert events(printed) == events(alone)  # the same game, the dealer found the same (A)
    assert printed.game.state()["dealer"] == "A" and len(events(printed)) >= 1 + len(PLAY)
    assert all(a.event.get("card") != "AS" for a in printed.follower.applied)
    assert not any(f.card == "AS" for f in printed.follower.flags)
    assert not any(f.kind in ("starter", "play", "dealer") for f in printed.follower.flags)


def test_the_printed_card_is_said_to_be_left_be() -> None:
    d = Drawn(dealer=None, before=(PRINTED,))
    last = d.follower.status()["last"]
    assert last["card"] == "AS" and "leave it be" in last["say"] and "Ann's row" in last["say"]


def test_a_hand_passing_over_it_does_not_lay_it() -> None:
    d = played("A", (PRINTED,))
    for _ in range(3):  # a hand sweeps over the felt's ace and goes
        d.follower.feed(d.table.frame(hand=(PRINTED[1], PRINTED[2])), d.n)
        d.n += 1
    d.settle(12)
    assert all(a.event.get("card") != "AS" for a in d.follower.applied)
    assert not any(f.card == "AS" for f in d.follower.flags)


def test_a_card_laid_in_play_counts_though_one_lay_there_before() -> None:
    d = Drawn(dealer="A", before=(PRINTED,))
    d.lay(*STARTER)
    d.lay("KS", 170, 60)  # Bob, the pone, lays first
    d.lay("AH", 170, 300)  # Ann lays an ace of her own beside the felt's
    assert [(e["type"], e.get("card")) for e in events(d)][-2:] == [("play", "KS"), ("play", "AH")]


def test_a_card_unread_at_first_is_not_laid_when_the_whole_table_is_read_again() -> None:
    """The reader misses the felt's ace in the first look (its print reads only some of the
    time); later so much of the table changes at once that the whole frame is read again, and
    the ace is read: it lies where nothing changed, so it is not a card laid."""
    from tests.track.table import DrawnTable, patch_reader
    from vision.track import Sighting, Tracker, Zones

    frame_no = {"n": 0}

    def misses_the_ace_at_first(image):  # type: ignore[no-untyped-def]
        cards, doubts = patch_reader(image)
        if frame_no["n"] < 20:
            cards = [c for c in cards if c.card != "AS"]
        return cards, doubts

    table = DrawnTable()
    table.lay(*PRINTED)
    tracker = Tracker(Zones.default(2), reader=misses_the_ace_at_first)
    laid: list[str] = []

    def feed(frames: int) -> None:
        for _ in range(frames):
            laid.extend(s.card for s in tracker.feed(table.frame(), frame_no["n"]) if isinstance(s, Sighting))
            frame_no["n"] += 1

    feed(24)
    assert laid == []
    many = [("2C", 60, 60), ("3D", 140, 60), ("4H", 220, 60), ("5S", 300, 60), ("6C", 380, 60),
            ("7D", 60, 300), ("8H", 140, 300), ("9S", 220, 300), ("TC", 300, 300), ("JD", 380, 300),
            ("QH", 470, 60), ("KS", 470, 300)]
    for card in many:  # a cloth lifted off a dealt table: a third of the frame changes at once
        table.lay(*card)
    feed(20)
    assert sorted(laid) == sorted(c for c, _, _ in many)


def test_a_card_laid_before_its_place_was_first_read_still_counts() -> None:
    """The camera starts with Bob's hand over his row; the starter is turned and Bob lays the
    first card of the play there before his row was ever read. Something moved there, so that
    card was laid, not lying: it is the first of the play (Ann dealt)."""
    from companion.tracking import StoreGame
    from cribbage.gamelog import GameStore
    from tests.track.table import DrawnTable, patch_reader
    from vision.track import Follower, Tracker, Zones

    d = Drawn.__new__(Drawn)
    store = GameStore(":memory:")
    d.table, d.n = DrawnTable(), 0
    d.game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
    d.follower = Follower(d.game, Tracker(Zones.default(2), reader=patch_reader))
    for step in range(14):  # Bob's hand moving over his row from the first frame; the starter turned
        if step == 6:
            d.table.lay(*STARTER)
        d.follower.feed(d.table.frame(hand=(170 + 12 * (step % 2), 60)), d.n)
        d.n += 1
    d.table.lay("KS", 170, 60)
    d.settle(12)
    assert d.game.state()["dealer"] == "A" and ("play", "B") in d.kinds("play")


def test_after_the_camera_comes_back_the_printed_card_is_still_left_be() -> None:
    """The camera restarts mid-play and reports everything lying afresh, the felt's ace too:
    it was left be there, so it is still no card of the play (it was asked about as Ann's card
    out of turn, and held the rest of the play behind that flag)."""
    d = Drawn(dealer="A", before=(PRINTED,))
    d.lay(*STARTER)
    d.lay(*PLAY[0])
    d.lay(*PLAY[1])
    d.n = 0  # the camera restarts: its frame numbers begin again
    d.settle(12)
    for card in PLAY[2:]:
        d.lay(*card)
    d.settle(12)
    assert [e.get("card") for e in events(d) if e["type"] == "play"] == [c for c, _, _ in PLAY]
    assert not d.follower.flags


def test_the_next_game_leaves_it_be_too() -> None:
    """The camera service keeps one tracker for the evening and reads the table afresh for each
    new game (``forget``): the felt's ace, left be in the first game, is no card of the next one's
    play either, nor the first card that says who dealt."""
    from companion.tracking import StoreGame
    from cribbage.gamelog import GameStore
    from vision.track import Follower

    d = played("A", (PRINTED,))
    for card, _, _ in [STARTER, *PLAY]:
        del d.table.cards[card]  # the table cleared for the next game; the printed ace stays
    d.settle(6)
    store = GameStore(":memory:")
    d.game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))  # no dealer told
    tracker = d.follower.tracker
    tracker.forget()
    d.follower = Follower(d.game, tracker)
    d.settle(8)
    d.lay(*STARTER)
    for card in PLAY[:4]:
        d.lay(*card)
    d.settle(12)
    assert d.game.state()["dealer"] == "A"
    assert [e.get("card") for e in events(d) if e["type"] == "play"] == [c for c, _, _ in PLAY[:4]]
    assert not d.follower.flags
