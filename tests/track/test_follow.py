"""The follower: what the tracker sees, as the game's events, with the rules as the filter."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.tracking import StoreGame
from cribbage.errors import CribbageError
from cribbage.game import Game, Settings
from cribbage.gamelog import GameStore
from tests.track.table import DrawnTable, code, patch_reader
from vision.track import Follower, Tracker, Zones, events_json

CENTRE = (320, 150)
ROW = {"A": 300, "B": 60}


class Table:
    """A drawn table and a follower of a new game (dealer A) fed every frame drawn."""

    def __init__(self, reader: Any = patch_reader) -> None:
        self.store = GameStore(":memory:")
        self.game = StoreGame(self.store, self.store.new_game({"players": "Ann,Bob"}))
        self.game.apply({"type": "dealer", "seat": "A"})
        self.follower = Follower(self.game, Tracker(Zones.default(2), reader=reader))
        self.drawn = DrawnTable()
        self.frame = 0
        self.laid = {"A": 0, "B": 0}

    def show(self, frames: int = 8, hand: tuple[int, int] | None = None) -> list[Any]:
        applied = []
        for _ in range(frames):
            applied += self.follower.feed(self.drawn.frame(hand=hand), self.frame)
            self.frame += 1
        return applied

    def reach(self, x: int, y: int) -> None:
        for hy in np.linspace(360 if y > 180 else 0, y, 3):
            self.show(1, hand=(x, int(hy)))

    def starter(self, card: str) -> None:
        self.reach(*CENTRE)
        self.drawn.lay(card, *CENTRE)
        self.show(10)

    def play(self, seat: str, card: str, blue: int | None = None) -> None:
        x = 80 + 50 * self.laid[seat]
        self.laid[seat] += 1
        self.reach(x, ROW[seat])
        self.drawn.lay(card, x, ROW[seat], blue=blue)
        self.show(10)

    def crib(self, cards: list[str]) -> None:
        self.reach(*CENTRE)
        for k, card in enumerate(cards):
            self.drawn.lay(card, 230 + 50 * k, 215)
        self.show(12)


DEAL = [("B", "5S"), ("A", "TS"), ("B", "5H"), ("A", "6D"),  # 15, 25 pegs 2 then 31 for 2
        ("B", "2C"), ("A", "3C"), ("B", "4C"), ("A", "AH")]


def expected(events: list[dict[str, Any]]) -> dict[str, int]:
    game = Game(Settings.from_json({"players": "Ann,Bob"}))
    for e in [{"type": "dealer", "seat": "A"}, *events]:
        game = game.apply(e)
    return game.scores


def test_a_deal_seen_on_the_table_is_the_deal_the_game_scores() -> None:
    t = Table()
    t.show(5)
    t.starter("JH")
    for seat, card in DEAL:
        t.play(seat, card)
    t.crib(["QD", "KD", "9S", "8H"])
    sent = events_json(t.follower.applied)
    assert [(e["type"], e.get("seat"), e.get("card") or e.get("cards")) for e in sent] == [
        ("starter", None, "JH"), *[("play", s, c) for s, c in DEAL],
        ("show", "B", None), ("show", "A", None), ("crib", None, ["QD", "KD", "9S", "8H"])]
    truth = expected([{"type": "starter", "card": "JH"}]
                     + [{"type": "play", "seat": s, "card": c} for s, c in DEAL]
                     + [{"type": "show", "seat": "B"}, {"type": "show", "seat": "A"},
                        {"type": "crib", "cards": ["QD", "KD", "9S", "8H"]}])
    assert t.game.state()["scores"] == truth
    assert t.follower.flags == []
    stored = t.store.events(t.game.game_id)
    assert all(e["source"] == "camera" for e in stored)
    assert stored[1]["event"]["seen"]["frame"] == sent[0]["frame"]


def test_a_card_the_game_refuses_is_flagged_not_pegged_and_can_be_fixed() -> None:
    t = Table()
    t.show(5)
    t.starter("7C")
    t.play("B", "4D")
    t.play("B", "5S")  # B again at a count of 4: A cannot have said go (a dealer laying first is
    state = t.game.state()  # the table contradicting the dealer told: tests/track/test_waits.py)
    assert [p["card"] for p in state["plays"]] == ["4D"]
    [flag] = t.follower.status()["flagged"]
    assert flag["card"] == "5S" and flag["zone"] == "B" and "refuses" in flag["reason"]
    with pytest.raises(CribbageError):
        t.follower.resolve(flag["id"], "accept")
    assert t.follower.status()["flagged"]  # still waiting
    t.follower.resolve(flag["id"], "dismiss")
    assert t.follower.status()["flagged"] == []


def test_a_card_not_read_surely_waits_for_the_players() -> None:
    t = Table()
    t.show(5)
    t.starter("7C")
    t.play("B", "5S", blue=20)  # a code no card has: never read surely
    [flag] = t.follower.status()["flagged"]
    assert flag["zone"] == "B" and flag["card"] is None
    assert t.follower.status()["tracker"] == "waiting for a confirmation"
    state = t.follower.resolve(flag["id"], "fix", "5s")
    assert [p["card"] for p in state["plays"]] == ["5S"]
    t.play("A", "TD")  # the play goes on from the camera
    assert [p["card"] for p in t.game.state()["plays"]] == ["5S", "TD"]
    assert t.game.state()["scores"]["A"] == 2


def test_cards_the_game_already_holds_are_not_sent_again() -> None:
    t = Table()
    t.show(5)
    t.starter("7C")
    t.play("B", "5S")
    t.follower.tracker.forget()  # a camera that came back: the whole table is read again
    t.drawn.lay("9H", 600, 300)
    t.show(10)
    sent = events_json(t.follower.applied)
    assert [(e["type"], e.get("card")) for e in sent] == [("starter", "7C"), ("play", "5S"), ("play", "9H")]


def test_crops_are_kept_with_the_event() -> None:
    saved = []

    def save(crop: np.ndarray, stem: str) -> str:
        saved.append(crop.shape)
        return f"crops/{stem}.jpg"

    t = Table()
    t.follower.save_crop = save
    t.show(5)
    t.starter("7C")
    [event] = [e["event"] for e in t.store.events(t.game.game_id) if e["event"]["type"] == "starter"]
    assert event["seen"]["crop"].startswith("crops/") and saved and saved[0][2] == 3


def test_the_code_table_is_what_the_drawn_cards_use() -> None:
    assert code("AS") != code("2S")


def test_a_card_not_read_surely_beside_the_last_of_a_row_is_flagged_too() -> None:
    t = Table()
    t.show(5)
    t.starter("7C")
    t.play("B", "5S")
    t.play("A", "TD")
    t.play("B", "QH", blue=20)  # laid beside B's five, never read surely
    [flag] = t.follower.status()["flagged"]
    assert flag["zone"] == "B" and flag["card"] is None
    t.follower.resolve(flag["id"], "fix", "QH")
    assert [p["card"] for p in t.game.state()["plays"]] == ["5S", "TD", "QH"]
