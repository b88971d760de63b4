"""Storage trouble made with SQLite itself, for the store, CLI and page tests.

* a full disk: ``PRAGMA max_page_count`` held at the file's size on the store's own connection;
* a read-only file: the connection opened with ``mode=ro`` (the tests run as root, where
  ``chmod`` stops nobody);
* an I/O error: :class:`FaultyConnection` raises SQLite's own ``disk I/O error`` at a chosen
  statement, after rolling back as SQLite does when the disk fails under a transaction;
* damage: :func:`damage` writes garbage pages into the middle of a closed file.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from cribbage.game import Settings
from cribbage.game.simulate import random_game
from cribbage.gamelog import GameStore

DEAL_START = [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"}]


class FaultyConnection(sqlite3.Connection):
    """A real SQLite connection whose ``execute`` fails with ``error`` on a statement that
    contains ``fault`` (``fault = None``: no fault)."""

    fault: str | None = None
    error: sqlite3.Error = sqlite3.OperationalError("disk I/O error")
    faults = 0

    def _maybe_fail(self, sql: str) -> None:
        if self.fault is not None and self.fault in sql:
            self.faults += 1
            if self.in_transaction:  # SQLite rolls back itself when the disk fails mid-write
                super().execute("ROLLBACK")
            raise self.error

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        self._maybe_fail(sql)
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        self._maybe_fail(sql)
        return super().executemany(sql, *args)


class Opened:
    """A ``connect`` for :class:`GameStore` that keeps the connection it made (``.db``)."""

    def __init__(self, *, read_only: bool = False, max_pages: int | None = None) -> None:
        self.read_only = read_only
        self.max_pages = max_pages
        self.db: FaultyConnection | None = None

    def __call__(self, path: str) -> sqlite3.Connection:
        target, uri = (f"file:{path}?mode=ro", True) if self.read_only else (path, False)
        db = sqlite3.connect(target, uri=uri, timeout=15, isolation_level=None,
                             check_same_thread=False, factory=FaultyConnection)
        if self.max_pages is not None:
            db.execute(f"PRAGMA max_page_count = {self.max_pages}")
        self.db = db
        return db

    def fill_disk(self) -> None:
        """From now on the file cannot grow by a single page."""
        assert self.db is not None
        pages = self.db.execute("PRAGMA page_count").fetchone()[0]
        self.db.execute(f"PRAGMA max_page_count = {pages}")

    def free_disk(self) -> None:
        assert self.db is not None
        self.db.execute("PRAGMA max_page_count = 1073741823")


def snapshot(store: GameStore, game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """What a storage failure must leave alone: the state, the events, the number of games."""
    return store.state(game_id), store.events(game_id), len(store.games())


def played_log(path: Path, games: int, seed: int = 7) -> list[int]:
    """A game log of ``games`` whole random games (two players); their ids."""
    rng = random.Random(seed)
    ids = []
    with GameStore(path) as store:
        for _ in range(games):
            settings = {"players": ["Ann", "Bob"]}
            _, events = random_game(Settings.from_json(settings), rng, max_deals=40)
            game_id = store.new_game(settings)
            store.apply_many(game_id, events, source="test")
            ids.append(game_id)
    return ids


def damage(path: Path, size: int = 8192, seed: int = 3) -> int:
    """Write ``size`` bytes of garbage into the middle of the (closed) file, on page
    boundaries; returns where."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    at = (len(data) // 2) // page * page
    data[at:at + size] = random.Random(seed).randbytes(size)
    path.write_bytes(bytes(data))
    return at
