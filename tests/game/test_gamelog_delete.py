"""Deleting the demo's game once a newer game replaces it (GameStore.delete_demo_game): the demo
video starts a game each pass, and each pass's game replaces the last in the log itself, not only
in History. A game started anywhere else is never deleted; a deletion is all or nothing."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cribbage.errors import RuleError, StorageError
from cribbage.game import Settings
from cribbage.game.simulate import random_game
from cribbage.gamelog import DEMO_SOURCE, GameStore
from tests.game.storagekit import DEAL_START, Opened, snapshot

PLAYERS = {"players": ["Ann", "Bob"]}


def demo_game(store: GameStore) -> int:
    """A game as the demo starts one: its first event sent by the demo."""
    game = store.new_game(PLAYERS)
    store.apply_many(game, DEAL_START, source=DEMO_SOURCE)
    return game


def rows(path: Path, game_id: int) -> tuple[int, int]:
    """The game's rows in the file itself, read on a connection of its own: (games, events)."""
    with sqlite3.connect(path) as db:
        games = db.execute("SELECT count(*) FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        events = db.execute("SELECT count(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]
    return games, events


def test_a_replaced_demo_game_is_deleted_with_its_events(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with GameStore(path) as store:
        first = demo_game(store)
        second = demo_game(store)
        assert rows(path, first) == (1, 2)
        assert store.delete_demo_game(first) is True
        assert rows(path, first) == (0, 0)
        assert [g["id"] for g in store.games()] == [second]
        with pytest.raises(RuleError, match="no game"):
            store.state(first)
        assert store.delete_demo_game(first) is False  # already gone
    with GameStore(path) as again:  # committed: gone for the next start too
        assert [g["id"] for g in again.games()] == [second]


def test_a_game_started_on_the_page_is_never_deleted(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.db") as store:
        page = store.new_game(PLAYERS)
        store.apply_many(page, DEAL_START, source="page")
        cli = store.new_game(PLAYERS)
        store.apply_many(cli, DEAL_START)  # the crib command's source
        empty = store.new_game(PLAYERS)  # started, nothing recorded yet: whose it is is not known
        store.apply(page, {"type": "play", "seat": "A", "card": "JC"}, source=DEMO_SOURCE)
        demo_game(store)
        before = [snapshot(store, g) for g in (page, cli, empty)]
        assert [store.delete_demo_game(g) for g in (page, cli, empty)] == [False, False, False]
        assert [snapshot(store, g) for g in (page, cli, empty)] == before


def test_a_demo_game_a_player_played_into_is_still_the_demos(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.db") as store:
        demo = demo_game(store)
        store.apply(demo, {"type": "play", "seat": "A", "card": "JC"}, source="page")
        store.new_game(PLAYERS)
        assert store.delete_demo_game(demo) is True


def test_the_newest_game_is_kept_so_no_number_is_given_twice(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.db") as store:
        old = demo_game(store)
        newest = demo_game(store)
        assert store.delete_demo_game(newest) is False
        assert store.delete_demo_game(old) is True
        assert store.new_game(PLAYERS) == newest + 1  # SQLite gives max(id) + 1: never old's again
        assert old not in [g["id"] for g in store.games()]


@pytest.mark.parametrize("bad", [0, -1, 2**63, 10**30, "1", 1.0, None, True, [1], {"id": 1}])
def test_no_game_number_at_all_deletes_nothing(tmp_path: Path, bad: Any) -> None:
    with GameStore(tmp_path / "games.db") as store:
        demo = demo_game(store)
        demo_game(store)
        assert store.delete_demo_game(bad) is False
        assert store.delete_demo_game(999) is False
        assert len(store.games()) == 2 and store.state(demo)["events"] == 2


def test_a_deleted_demo_game_leaves_the_match_tally() -> None:
    store = GameStore(":memory:")
    _, events = random_game(Settings.from_json(PLAYERS), random.Random(3), max_deals=40)
    demo = store.new_game(PLAYERS)
    store.apply_many(demo, events, source=DEMO_SOURCE)
    later = demo_game(store)
    assert store.state(later)["match"]["games"] == 1
    assert store.delete_demo_game(demo) is True
    assert store.state(later)["match"]["games"] == 0
    store.close()


@pytest.mark.parametrize("fault", ["DELETE FROM events", "DELETE FROM games", "COMMIT"])
def test_a_failed_deletion_leaves_the_whole_game(tmp_path: Path, fault: str) -> None:
    opened = Opened()
    path = tmp_path / "games.db"
    store = GameStore(path, connect=opened)
    demo = demo_game(store)
    demo_game(store)
    before = snapshot(store, demo)
    assert opened.db is not None
    opened.db.fault = fault
    with pytest.raises(StorageError):
        store.delete_demo_game(demo)
    opened.db.fault = None
    assert snapshot(store, demo) == before and rows(path, demo) == (1, 2)
    assert store.delete_demo_game(demo) is True  # the store goes on
    store.close()


def test_a_read_only_log_refuses_to_delete(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with GameStore(path) as store:
        demo = demo_game(store)
        demo_game(store)
    with GameStore(path, connect=Opened(read_only=True)) as read_only:
        with pytest.raises(StorageError):
            read_only.delete_demo_game(demo)
        assert read_only.state(demo)["events"] == 2
