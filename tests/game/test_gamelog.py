"""The SQLite game log: append before effect, reopen to the same state, threads, migration."""

from __future__ import annotations

import json
import random
import sqlite3
import threading

import pytest

from cribbage.errors import CribbageError, RuleError
from cribbage.game import Settings
from cribbage.game.simulate import random_game
from cribbage.gamelog import _SCHEMA_V1, SCHEMA_VERSION, GameStore


def _rows(path, game_id=None):
    with sqlite3.connect(path) as db:
        if game_id is None:
            return db.execute("SELECT count(*) FROM events").fetchone()[0]
        return db.execute("SELECT count(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]


def test_a_recorded_game_reopens_to_the_identical_state(tmp_path):
    path = tmp_path / "games.db"
    _, events = random_game(Settings.from_json({}), random.Random(11))
    with GameStore(path) as store:
        gid = store.new_game({"players": "Ann,Bob"})
        for event in events:
            state = store.apply(gid, event, source="test")
    assert state["winner"] is not None
    with GameStore(path) as again:
        assert again.state(gid) == state
        assert again.latest_game() == gid
        assert len(again.events(gid)) == len(events) == state["events"]


def test_pragmas_and_schema_version(tmp_path):
    with GameStore(tmp_path / "g.db") as store:
        db = store._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_refused_event_is_not_stored_and_changes_nothing(tmp_path):
    path = tmp_path / "g.db"
    with GameStore(path) as store:
        gid = store.new_game({})
        store.apply(gid, {"type": "dealer", "seat": "B"})
        before = store.state(gid)
        with pytest.raises(RuleError) as info:
            store.apply(gid, {"type": "play", "seat": "A", "card": "5H"})
        assert info.value.rule == "phase"
        with pytest.raises(CribbageError):
            store.apply(gid, {"type": "play", "seat": "A", "card": "ZZ"})
        with pytest.raises(RuleError):
            store.apply_many(gid, [{"type": "starter", "card": "5H"},
                                   {"type": "play", "seat": "B", "card": "5H"}])
        assert store.state(gid) == before
    assert _rows(path) == 1


def test_apply_many_is_one_transaction(tmp_path):
    with GameStore(tmp_path / "g.db") as store:
        gid = store.new_game({})
        state = store.apply_many(gid, [{"type": "dealer", "seat": "B"},
                                       {"type": "starter", "card": "5H"}])
        assert state["events"] == 2 and state["phase"] == "play"


def test_events_show_sources_supersession_points_and_scores(tmp_path):
    with GameStore(tmp_path / "g.db") as store:
        gid = store.new_game({})
        store.apply(gid, {"type": "dealer", "seat": "B"}, source="page")
        store.apply(gid, {"type": "starter", "card": "JH"}, source="camera")
        store.apply(gid, {"type": "correct", "event": 2, "with": {"type": "starter", "card": "JD"}})
        store.apply(gid, {"type": "play", "seat": "A", "card": "TH"}, source="camera")
        store.apply(gid, {"type": "play", "seat": "B", "card": "5S"}, source="camera")
        events = store.events(gid)
    assert [e["id"] for e in events] == [1, 2, 3, 4, 5]
    assert [e["source"] for e in events] == ["page", "camera", "cli", "camera", "camera"]
    assert events[1]["superseded_by"] == 3 and events[1]["points"] == []
    assert events[2]["corrects"] == 2 and events[2]["points"][0]["kind"] == "heels"
    assert events[2]["points"][0]["cards"] == ["JD"] and events[2]["scores"] == {"A": 0, "B": 2}
    assert events[4]["points"][0]["kind"] == "fifteen" and events[4]["scores"] == {"A": 0, "B": 4}
    assert events[3]["scores"] == {"A": 0, "B": 2}
    assert events[0]["at"].endswith("+00:00")


def test_games_list_and_match_tally(tmp_path):
    with GameStore(tmp_path / "g.db") as store:
        for loser_points in (100, 80, 50):  # a win, a skunk, a double skunk, all for Ann
            gid = store.new_game({"players": "Ann,Bob"})
            store.apply_many(gid, [{"type": "dealer", "seat": "A"},
                                   {"type": "adjust", "seat": "B", "points": loser_points},
                                   {"type": "adjust", "seat": "A", "points": 121}])
        other = store.new_game({"players": "Cat,Dan"})
        games = store.games()
        state = store.state(gid)
    assert [g["id"] for g in games] == [other, 3, 2, 1]
    assert [g["skunk"] for g in games[1:]] == ["double", "skunk", None]
    assert games[1]["winner_name"] == "Ann" and games[0]["winner"] is None
    assert state["match"] == {"games": 3, "points": {"Ann": 7}, "wins": {"Ann": 3}}


def test_unknown_game_and_a_file_that_is_not_a_game_log(tmp_path):
    with GameStore(tmp_path / "g.db") as store:
        assert store.latest_game() is None
        with pytest.raises(RuleError):
            store.state(5)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(CribbageError):
        GameStore(junk)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE photos (id INTEGER)")
    with pytest.raises(CribbageError):
        GameStore(other)


def test_threads_share_one_store(tmp_path):
    path = tmp_path / "g.db"
    store = GameStore(path)
    gids = [store.new_game({}) for _ in range(4)]
    for gid in gids:
        store.apply(gid, {"type": "dealer", "seat": "A"})
    errors = []

    def worker(gid):
        try:
            for _ in range(25):
                store.apply(gid, {"type": "adjust", "seat": "B", "points": 1}, source="thread")
                store.state(gid)
                store.games()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(g,)) for g in gids + gids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [store.state(g)["scores"]["B"] for g in gids] == [50] * 4
    store.close()
    assert _rows(path) == 4 * 51


def test_two_stores_on_one_file_see_each_others_events(tmp_path):
    """The service and the crib command write the same file."""
    path = tmp_path / "g.db"
    a, b = GameStore(path), GameStore(path)
    gid = a.new_game({})
    a.apply(gid, {"type": "dealer", "seat": "A"})
    b.apply(gid, {"type": "adjust", "seat": "B", "points": 3})
    assert a.apply(gid, {"type": "adjust", "seat": "B", "points": 2})["scores"]["B"] == 5
    assert b.state(gid)["scores"]["B"] == 5
    a.close()
    b.close()


def test_migration_from_version_1(tmp_path):
    path = tmp_path / "v1.db"
    with sqlite3.connect(path) as db:
        db.executescript(_SCHEMA_V1)
        db.execute("INSERT INTO games (created, settings) VALUES (?, ?)",
                   ("2026-01-01T00:00:00+00:00", json.dumps({"players": ["Ann", "Bob"]})))
        for seq, event in enumerate([{"type": "dealer", "seat": "A"},
                                     {"type": "adjust", "seat": "A", "points": 121}], 1):
            db.execute("INSERT INTO events (game_id, seq, at, event) VALUES (1, ?, ?, ?)",
                       (seq, "2026-01-01T00:00:01+00:00", json.dumps(event)))
        db.execute("PRAGMA user_version = 1")
    with GameStore(path) as store:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == 2
        assert store.state(1)["winner"] == "A"
        assert store.games()[0]["skunk"] == "double"
        assert [e["source"] for e in store.events(1)] == ["unknown", "unknown"]
        gid = store.new_game({})
        assert store.apply(gid, {"type": "dealer", "seat": "A"}, source="cli")["events"] == 1
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT summary IS NOT NULL FROM games WHERE id = 1").fetchone()[0]


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 9")
    with pytest.raises(CribbageError, match="newer"):
        GameStore(path)


def test_another_database_is_left_untouched(tmp_path):
    other = tmp_path / "photos.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE photos (id INTEGER)")
    before = other.read_bytes()
    with pytest.raises(CribbageError, match="not a game log"):
        GameStore(other)
    assert other.read_bytes() == before
    with sqlite3.connect(other) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
