"""Nothing waits in silence: whatever the follower waits for comes, heals, or is flagged.

Whole rendered games are followed with the real reader blinded at random moments (for a second
to five seconds at a time, as a hand, a glare or a stalled camera would). Nobody answers the
flags. At every frame the game must be as far on as the table, or a flag must be up: never a
game that quietly stops. And where the reader is blind to nothing, a hand whose cards are not
seen again is counted from the play once the crib is spread, and ``crib track`` says in one line
what a video left for the players.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from companion.tracking import StoreGame
from cribbage.gamelog import GameStore
from tests.track.table import DrawnTable, patch_reader
from vision.camera import source_for_path
from vision.synth.golden import golden_video
from vision.track import Follower, Seen, Tracker, Zones
from vision.track.follow import DEADLINE
from vision.track.tracker import read_with_reader

KINDS = ("starter", "play", "show", "crib")
LATE = 10 + DEADLINE + 10  # frames after a card lies still by which its event, or a flag, is due
# (and the table has lain still for the deadline since: a hand sweeping it puts the deadline off)


def blinded(seed: int, frames: int) -> tuple[Any, list[tuple[int, int]]]:
    """The real reader, blind (seeing nothing) in five random windows of 10-50 frames."""
    rng = random.Random(seed)
    windows = sorted((start, start + rng.randint(10, 50))
                     for start in (rng.randrange(frames) for _ in range(5)))
    now = {"frame": -1}

    def reader(image: np.ndarray) -> tuple[list[Seen], list[Seen]]:
        if any(a <= now["frame"] < b for a, b in windows):
            return [], []
        return read_with_reader(image)

    reader.now = now  # type: ignore[attr-defined]
    return reader, windows


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "seed"), [("golden", 1), ("golden", 2), ("three", 3), ("whole", 4)])
def test_blinded_at_random_the_game_never_stops_without_a_flag(scenario: str, seed: int) -> None:
    path, truth = golden_video(scenario=scenario)
    settings = truth["settings"]
    reader, windows = blinded(seed, truth["frames"])
    store = GameStore(":memory:")
    game = StoreGame(store, store.new_game({"players": ",".join(settings["players"]),
                                            "variant": settings["variant"]}))
    game.apply({"type": "dealer", "seat": truth["dealer"]})
    follower = Follower(game, Tracker(Zones.default(len(settings["players"])), reader=reader))
    due = sorted(a["still"] + LATE for a in truth["actions"] if a["do"] in KINDS)
    source = source_for_path(path)
    source.open()
    flagged = 0
    silent: list[tuple[int, int, int]] = []
    while (frame := source.read()) is not None:
        reader.now["frame"] = frame.number  # type: ignore[attr-defined]
        follower.feed(frame.image, frame.number)
        flagged = max(flagged, len(follower.flags))
        sent = sum(1 for a in follower.applied if a.event["type"] in KINDS)
        owed = sum(1 for d in due if d <= frame.number)
        if sent < owed and not follower.flags and follower.tracker.quiet() > DEADLINE + 5:
            silent.append((frame.number, sent, owed))  # behind the table, lying still, and nothing said
    source.close()
    left = follower.finish()
    assert not silent[:1], f"blind {windows}: stopped without a flag at (frame, sent, owed) {silent[:3]}"
    if not left:  # nothing left for the players: then the camera followed every event
        assert game.state()["scores"] == truth["scores"], windows


class Drawn:
    """A drawn two-player table followed by the follower (read with :func:`patch_reader`): cards
    laid by a hand that comes and goes, then frames of the table lying still.

    >>> Drawn(dealer="A").game.state()["dealer"]
    'A'
    """

    def __init__(self, dealer: str | None, before: tuple[tuple[str, int, int], ...] = ()) -> None:
        self.table = DrawnTable()
        for card, x, y in before:  # lying there before the camera's first frame
            self.table.lay(card, x, y)
        store = GameStore(":memory:")
        self.game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
        if dealer is not None:
            self.game.apply({"type": "dealer", "seat": dealer})
        self.follower = Follower(self.game, Tracker(Zones.default(2), reader=patch_reader))
        self.n = 0
        self.settle()

    def settle(self, frames: int = 8) -> None:
        for _ in range(frames):
            self.follower.feed(self.table.frame(), self.n)
            self.n += 1

    def lay(self, card: str, x: int, y: int) -> None:
        self.follower.feed(self.table.frame(hand=(x, y)), self.n)
        self.n += 1
        self.table.lay(card, x, y)
        self.settle()

    def kinds(self, *types: str) -> list[tuple[str, str | None]]:
        """The events sent of ``types``, as (type, seat)."""
        return [(a.event["type"], a.event.get("seat")) for a in self.follower.applied
                if a.event["type"] in types]


STARTER = ("5H", 320, 180)
PLAY = [("KS", 170, 60), ("QD", 170, 300), ("4C", 220, 60), ("3D", 220, 300),
        ("9S", 270, 60), ("8D", 270, 300), ("7C", 320, 60), ("6D", 320, 300)]
"""A deal's play, Bob (the pone, at the top) first, each row left to right."""


def test_a_hand_not_seen_again_is_counted_from_the_play_once_the_crib_is_spread() -> None:
    """Bob's first card is turned face down before the play ends and never read again: once the
    crib lies spread in the centre his hand is counted from the cards he laid, then the crib."""
    deal = Drawn(dealer="A")
    for card, x, y in [STARTER, *PLAY]:
        if card == "6D":
            deal.table.turn("KS", False)  # Bob's first card, face down: his hand is not all in view
            deal.settle()
        deal.lay(card, x, y)
    state = deal.game.state()
    assert state["phase"] == "show" and state["next"] == "B"
    for i, card in enumerate(["2S", "JH", "TC", "AH"]):
        deal.lay(card, 230 + 50 * i, 190)
    deal.settle(10)
    assert deal.kinds("show", "crib") == [("show", "B"), ("show", "A"), ("crib", None)]
    assert deal.game.state()["phase"] == "deal" and deal.follower.flags == []


def test_a_hand_never_seen_again_is_counted_at_the_deadline() -> None:
    """The show's cards stay hidden and the table lies still: within ``DEADLINE`` frames of it
    lying still, the hands are counted from the play, and the crib awaited is then flagged in
    players' words."""
    deal = Drawn(dealer="A")
    for card, x, y in [STARTER, *PLAY]:
        deal.lay(card, x, y)
    for card in ["KS", "4C", "9S", "7C"]:
        deal.table.turn(card, False)
    deal.follower.feed(deal.table.frame(hand=(250, 60)), deal.n)
    deal.n += 1
    start = deal.n
    while not deal.kinds("show") and deal.n < start + 2 * DEADLINE:
        deal.settle(1)
    assert deal.n <= start + DEADLINE + 2  # counted by the deadline, not later
    deal.settle(DEADLINE + 2)
    assert deal.kinds("show") == [("show", "B"), ("show", "A")]
    [flag] = deal.follower.flags
    assert flag.kind == "crib" and "crib" in flag.say and "Spread it face up" in flag.say
    assert deal.follower.finish() == [f"flag {flag.id} (frame {flag.frame}): {flag.say}"]


def test_a_game_with_no_dealer_finds_it_from_the_first_card_of_the_play() -> None:
    """Nobody said who deals: the starter is kept, and the first card laid (Ann's, at the
    bottom) says Ann is the pone, so Bob dealt; the starter and the card follow, and the deal
    goes on."""
    deal = Drawn(dealer=None)
    for card, x, y in [STARTER, ("KS", 170, 300), ("QD", 170, 60)]:
        deal.lay(card, x, y)
    assert deal.game.state()["dealer"] == "B"
    assert [(a.event["type"], a.event.get("seat"), a.event.get("card")) for a in deal.follower.applied] == [
        ("dealer", "B", None), ("starter", None, "5H"), ("play", "A", "KS"), ("play", "B", "QD")]


def test_a_new_card_in_a_row_after_the_play_is_offered_as_the_crib() -> None:
    """After the play every card of the hands is known: a new card in a seat's row is asked
    about as a crib card (the spread reaching into the row), and accepting it puts it in the
    crib, never 'the play is over'."""
    deal = Drawn(dealer="A")
    for card, x, y in [STARTER, *PLAY[:-1]]:
        deal.lay(card, x, y)
    deal.table.turn("KS", False)  # Bob's hand is not all in view: the show waits on the table
    deal.settle(4)
    for card, x, y in [PLAY[-1], ("2S", 420, 300)]:  # Ann's last card, then a card by her row
        deal.lay(card, x, y)
    [flag] = deal.follower.flags
    assert flag.kind == "crib" and "2♠" in flag.say and "crib" in flag.say
    assert flag.choices[0]["label"] == "Accept 2♠ in the crib"
    deal.follower.resolve(flag.id, "accept")
    assert deal.follower.flags == [] and [c for c, _ in deal.follower._crib] == ["2S"]


def test_a_dealer_the_table_contradicts_is_said_and_swapped_in_one_tap() -> None:
    """Ann was tapped as the dealer, but Ann lays the first card of the play: the table says Bob
    dealt. That is flagged in players' words, the card and those after it wait, and one tap
    corrects the dealer and applies the play in the order it was laid."""
    deal = Drawn(dealer="A")
    for card, x, y in [STARTER, ("KS", 170, 300), ("QD", 170, 60)]:  # Ann (bottom) first, then Bob
        deal.lay(card, x, y)
    [flag] = deal.follower.flags
    assert flag.kind == "dealer" and flag.say == "Ann laid the first card (K♠), so Bob dealt, not Ann"
    assert flag.choices[0] == {"label": "Bob dealt: swap", "action": "accept"}
    assert deal.kinds("play") == []  # nothing played while the players have not answered
    deal.follower.resolve(flag.id, "accept")
    state = deal.game.state()
    assert state["dealer"] == "B" and deal.follower.flags == []
    assert deal.kinds("play") == [("play", "A"), ("play", "B")]
    assert state["scores"] == {"A": 0, "B": 0}
    assert [e["event"]["type"] for e in deal.game.events()][-4:] == ["starter", "correct", "play", "play"]


def test_the_next_deal_laid_while_the_crib_waits_follows_once_it_is_answered() -> None:
    """The crib's last card is unreadable and nobody answers yet; the table is swept and the
    next deal begun. Its cards are not taken into the waiting crib (nor asked about as the
    crib's): once the players name the crib's card, the crib is counted and the next deal's
    starter and plays follow, in the order laid."""
    deal = Drawn(dealer="A")
    for card, x, y in [STARTER, *PLAY]:
        deal.lay(card, x, y)
    for card, x in [("2S", 220), ("JH", 270), ("TC", 380)]:  # beside the starter
        deal.lay(card, x, 190)
    deal.follower.feed(deal.table.frame(hand=(430, 190)), deal.n)
    deal.n += 1
    deal.table.lay("AH", 430, 190, blue=250)  # a patch no card's code: unreadable
    deal.settle(20)
    [flag] = deal.follower.flags
    assert flag.kind == "crib"
    deal.table.clear()  # swept; Bob deals; Ann, the pone now, lays first
    deal.settle(8)
    for card, x, y in [("3C", 320, 180), ("9H", 170, 300), ("5D", 170, 60)]:
        deal.lay(card, x, y)
    assert deal.kinds("crib") == [] and [f.id for f in deal.follower.flags] == [flag.id]
    deal.follower.resolve(flag.id, "fix", "AH")
    deal.settle(4)
    state = deal.game.state()
    assert deal.kinds("crib") == [("crib", None)] and state["dealer"] == "B"
    assert [(a.event["type"], a.event.get("card")) for a in deal.follower.applied][-3:] == [
        ("starter", "3C"), ("play", "9H"), ("play", "5D")]
