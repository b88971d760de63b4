"""The camera's flags in players' words (issue 45, item 5): a starter nobody could read is named
("Name the card…", never "Another card…" where no card was read), and a card the rules refuse
is asked about with names and card symbols, the engine's text kept in ``reason`` for the log.

The table is drawn (:class:`tests.track.table.DrawnTable`) and read by the patch reader.
"""

from __future__ import annotations

from companion.tracking import StoreGame
from cribbage.gamelog import GameStore
from tests.track.table import DrawnTable, patch_reader
from vision.track import Follower, Tracker, Zones

UNREADABLE = 205  # an index colour off the patch reader's codes: a card it cannot read


class Table:
    """A game of Ann (the bottom row) v Bob (the top row), Bob dealing, and its follower."""

    def __init__(self) -> None:
        self.drawn = DrawnTable()
        store = GameStore(":memory:")
        self.game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
        self.game.apply({"type": "dealer", "seat": "B"})
        self.follower = Follower(self.game, Tracker(Zones.default(2), reader=patch_reader))
        self.n = 0
        self.still(8)

    def still(self, frames: int) -> None:
        for _ in range(frames):
            self.follower.feed(self.drawn.frame(), self.n)
            self.n += 1

    def lay(self, card: str, x: int, y: int, blue: int | None = None) -> None:
        """A hand lays ``card`` at (x, y), then the table lies still."""
        self.follower.feed(self.drawn.frame(hand=(x, y)), self.n)
        self.n += 1
        self.drawn.lay(card, x, y, blue)
        self.still(8)


def test_a_starter_nobody_could_read_is_named_not_another_card() -> None:
    table = Table()
    table.lay("5H", 320, 180, blue=UNREADABLE)
    [flag] = table.follower.flags
    assert flag.kind == "starter" and flag.card is None and flag.likely == []
    assert flag.say == "The starter: I can't read it"
    assert [c["label"] for c in flag.choices] == ["Name the card…", "Not a card"]
    table.follower.resolve(flag.id, "fix", "5H")  # named: the game takes it
    assert table.game.state()["starter"] == "5H" and table.follower.flags == []


def test_a_card_the_rules_refuse_is_asked_about_in_players_words() -> None:
    table = Table()
    table.lay("5H", 320, 180)  # the starter
    table.lay("KS", 170, 300)  # Ann leads: 10
    table.lay("QD", 170, 60)  # Bob: 20
    table.lay("9C", 220, 60)  # Bob again, but it is Ann's turn (and at 20 she cannot have passed)
    [flag] = table.follower.flags
    assert flag.say == "9♣ in Bob's row, but it is Ann's turn: which card is it, or whose?"
    assert "B cannot lay 9C out of turn" in flag.reason  # the engine's own words, for the log
    for words in ("B cannot", "9C", "A's"):
        assert words not in flag.say
    assert flag.choices[0]["label"] == "Accept 9♣ as Bob's card"
    assert table.game.state()["count"] == 20  # nothing sent

