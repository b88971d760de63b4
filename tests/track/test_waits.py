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


def test_a_hand_not_seen_again_is_counted_from_the_play_once_the_crib_is_spread() -> None:
    """Bob's first card is hidden under a hand for the show and never read again: once the crib
    lies spread in the centre his hand is counted from the cards he laid, then the crib."""
    table = DrawnTable()
    store = GameStore(":memory:")
    game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
    game.apply({"type": "dealer", "seat": "A"})
    follower = Follower(game, Tracker(Zones.default(2), reader=patch_reader))
    n = 0

    def settle(frames: int = 8) -> None:
        nonlocal n
        for _ in range(frames):
            follower.feed(table.frame(), n)
            n += 1

    def lay(card: str, x: int, y: int) -> None:
        nonlocal n
        follower.feed(table.frame(hand=(x, y)), n)
        n += 1
        table.lay(card, x, y)
        settle()

    settle()
    lay("5H", 320, 180)  # the starter
    plays = [("B", "KS"), ("A", "QD"), ("B", "4C"), ("A", "3D"), ("B", "9S"), ("A", "8D"), ("B", "7C"),
             ("A", "6D")]
    xs = {"A": 170, "B": 170}
    for seat, card in plays:
        if card == "6D":
            table.turn("KS", False)  # Bob's first card, face down: his hand is not all in view
            settle()
        lay(card, xs[seat], 300 if seat == "A" else 60)
        xs[seat] += 50
    state = game.state()
    assert state["phase"] == "show" and state["next"] == "B"
    for i, card in enumerate(["2S", "JH", "TC", "AH"]):
        lay(card, 230 + 50 * i, 190)
    settle(10)
    state = game.state()
    kinds = [(a.event["type"], a.event.get("seat")) for a in follower.applied]
    assert [k for k in kinds if k[0] in ("show", "crib")] == [("show", "B"), ("show", "A"), ("crib", None)]
    assert state["phase"] == "deal" and follower.flags == []


def test_a_hand_never_seen_again_is_counted_at_the_deadline() -> None:
    """The show's cards stay hidden and the table lies still: within ``DEADLINE`` frames of it
    lying still, the hands are counted from the play, and the crib awaited is then flagged in
    players' words."""
    table = DrawnTable()
    store = GameStore(":memory:")
    game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
    game.apply({"type": "dealer", "seat": "A"})
    follower = Follower(game, Tracker(Zones.default(2), reader=patch_reader))
    n = 0
    for _ in range(8):
        follower.feed(table.frame(), n)
        n += 1
    for card, x, y in [("5H", 320, 180), ("KS", 170, 60), ("QD", 170, 300), ("4C", 220, 60), ("3D", 220, 300),
                       ("9S", 270, 60), ("8D", 270, 300), ("7C", 320, 60), ("6D", 320, 300)]:
        follower.feed(table.frame(hand=(x, y)), n)
        n += 1
        table.lay(card, x, y)
        for _ in range(8):
            follower.feed(table.frame(), n)
            n += 1
    for card in ["KS", "4C", "9S", "7C"]:
        table.turn(card, False)
    follower.feed(table.frame(hand=(250, 60)), n)
    n += 1
    shown_at = None
    for _ in range(2 * DEADLINE):
        follower.feed(table.frame(), n)
        if shown_at is None and any(a.event["type"] == "show" for a in follower.applied):
            shown_at = n
        n += 1
    assert shown_at is not None and shown_at <= n - DEADLINE  # counted by the deadline, not later
    assert [a.event.get("seat") for a in follower.applied if a.event["type"] == "show"] == ["B", "A"]
    [flag] = follower.flags
    assert flag.kind == "crib" and "crib" in flag.say and "Spread it face up" in flag.say
    assert follower.finish() == [f"flag {flag.id} (frame {flag.frame}): {flag.say}"]


def test_a_game_with_no_dealer_finds_it_from_the_first_card_of_the_play() -> None:
    """Nobody said who deals: the starter is kept, and the first card laid (Ann's) says Ann is
    the pone, so Bob dealt; the starter and the card follow, and the deal goes on."""
    table = DrawnTable()
    store = GameStore(":memory:")
    game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
    follower = Follower(game, Tracker(Zones.default(2), reader=patch_reader))
    n = 0
    for _ in range(8):
        follower.feed(table.frame(), n)
        n += 1
    for card, x, y in [("5H", 320, 180), ("KS", 170, 300), ("QD", 170, 60)]:
        follower.feed(table.frame(hand=(x, y)), n)
        n += 1
        table.lay(card, x, y)
        for _ in range(8):
            follower.feed(table.frame(), n)
            n += 1
    state = game.state()
    assert state["dealer"] == "B"
    assert [(a.event["type"], a.event.get("seat"), a.event.get("card")) for a in follower.applied] == [
        ("dealer", "B", None), ("starter", None, "5H"), ("play", "A", "KS"), ("play", "B", "QD")]


def test_a_new_card_in_a_row_after_the_play_is_offered_as_the_crib() -> None:
    """After the play every card of the hands is known: a new card in a seat's row is asked
    about as a crib card (the spread reaching into the row), and accepting it puts it in the
    crib, never 'the play is over'."""
    table = DrawnTable()
    store = GameStore(":memory:")
    game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
    game.apply({"type": "dealer", "seat": "A"})
    follower = Follower(game, Tracker(Zones.default(2), reader=patch_reader))
    n = 0
    lays = [("5H", 320, 180), ("KS", 170, 60), ("QD", 170, 300), ("4C", 220, 60), ("3D", 220, 300),
            ("9S", 270, 60), ("8D", 270, 300), ("7C", 320, 60)]
    for _ in range(8):
        follower.feed(table.frame(), n)
        n += 1
    for card, x, y in lays:
        follower.feed(table.frame(hand=(x, y)), n)
        n += 1
        table.lay(card, x, y)
        for _ in range(8):
            follower.feed(table.frame(), n)
            n += 1
    table.turn("KS", False)  # Bob's hand is not all in view: the show waits on the table
    for _ in range(4):
        follower.feed(table.frame(), n)
        n += 1
    for card, x, y in [("6D", 320, 300), ("2S", 420, 300)]:  # Ann's last card, then a card by her row
        follower.feed(table.frame(hand=(x, y)), n)
        n += 1
        table.lay(card, x, y)
        for _ in range(8):
            follower.feed(table.frame(), n)
            n += 1
    [flag] = follower.flags
    assert flag.kind == "crib" and "2♠" in flag.say and "crib" in flag.say
    assert flag.choices[0]["label"] == "Accept 2♠ in the crib"
    follower.resolve(flag.id, "accept")
    assert follower.flags == [] and [c for c, _ in follower._crib] == ["2S"]
