"""``crib game recover``: copy what can still be read of a damaged game log into a new file.

The damaged file is opened read-only and never changed. Each game row and each event row is read
on its own, by its id, so a damaged page loses only the rows on it: the games keep their ids,
their events their times and sources. A game keeps its events from the first up to the first
one that cannot be read (what follows a lost event may refer to it); the counts say what was
left behind.

>>> import tempfile, os
>>> from cribbage.gamelog import GameStore
>>> folder = tempfile.mkdtemp()
>>> with GameStore(os.path.join(folder, "old.db")) as store:
...     game = store.new_game({"players": "Ann,Bob"})
...     _ = store.apply(game, {"type": "dealer", "seat": "B"})
>>> report = recover(os.path.join(folder, "old.db"), os.path.join(folder, "new.db"))
>>> report.games, report.events, report.summary()
(1, 1, 'recovered 1 of 1 games and 1 of 1 events')
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cribbage.errors import CribbageError
from cribbage.gamelog import GameStore

__all__ = ["Recovery", "recover"]

GIVE_UP_AFTER = 1000
"""Ids probed past the last row found (when the table's largest id cannot be read)."""


@dataclass
class Recovery:
    """What ``recover`` copied and what it left behind."""

    games: int = 0
    events: int = 0
    games_seen: int = 0
    events_seen: int = 0
    unreadable_games: list[int] = field(default_factory=list)
    unreadable_events: int = 0
    short: dict[int, tuple[int, int]] = field(default_factory=dict)
    """game id -> (events kept, events it had), for the games that lost events."""

    def summary(self) -> str:
        line = (f"recovered {self.games} of {self.games_seen} games and {self.events} of "
                f"{self.events_seen} events")
        if self.unreadable_games or self.unreadable_events:
            line += (f"; unreadable: {len(self.unreadable_games)} game rows, "
                     f"{self.unreadable_events} event rows")
        return line

    def details(self) -> Iterator[str]:
        """One line per game that could not be copied whole."""
        for game_id in self.unreadable_games:
            yield f"game {game_id}: its row cannot be read; not copied"
        for game_id, (kept, had) in sorted(self.short.items()):
            yield f"game {game_id}: {kept} of {had} events copied (the rest lost or after a lost one)"


def _rows(db: sqlite3.Connection, table: str, columns: str) -> Iterator[tuple[int, tuple | None]]:
    """``(id, row)`` for every id of ``table`` up to its largest; row None when it cannot be
    read (a damaged page)."""
    try:
        top = db.execute(f"SELECT max(id) FROM {table}").fetchone()[0]
    except sqlite3.DatabaseError:
        top = None
    row_id, last_found = 0, 0
    while True:
        row_id += 1
        if top is not None and row_id > top:
            return
        if top is None and row_id - last_found > GIVE_UP_AFTER:
            return
        try:
            row = db.execute(f"SELECT {columns} FROM {table} WHERE id = ?",
                             (row_id,)).fetchone()
        except sqlite3.DatabaseError:
            last_found = row_id
            yield row_id, None
            continue
        if row is not None:
            last_found = row_id
            yield row_id, row


def recover(damaged: str | Path, out: str | Path) -> Recovery:
    """Copy every game and event of ``damaged`` that can still be read into the new file
    ``out`` (which must not exist yet)."""
    damaged, out = Path(damaged), Path(out)
    if not damaged.is_file():
        raise CribbageError(f"no game log at {damaged}")
    if out.exists():
        raise CribbageError(f"{out} already exists: give a new file to recover into")
    try:
        src = sqlite3.connect(f"file:{damaged.resolve()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise CribbageError(f"cannot open {damaged} ({exc})") from None
    report = Recovery()
    try:
        try:
            src.execute("SELECT id, created, settings FROM games LIMIT 0")
            src.execute("SELECT id, game_id, seq, at, event FROM events LIMIT 0")
        except sqlite3.DatabaseError as exc:
            raise CribbageError(f"nothing can be read from {damaged} ({exc})") from None
        try:
            src.execute("SELECT source FROM events LIMIT 0")
            source = "source"
        except sqlite3.DatabaseError:  # a first-release log: no sources
            source = "'unknown'"
        try:
            src.execute("SELECT summary FROM games LIMIT 0")
            had = "json_extract(summary, '$.events')"
        except sqlite3.DatabaseError:  # a first-release log: no summaries
            had = "NULL"
        games: dict[int, tuple[str, str, int]] = {}
        for game_id, row in _rows(src, "games", f"created, settings, {had}"):
            if row is None:
                report.unreadable_games.append(game_id)
            else:
                games[game_id] = (str(row[0]), str(row[1]), int(row[2] or 0))
        events: dict[int, list[tuple[int, str, str, str]]] = {}
        for _, row in _rows(src, "events", f"game_id, seq, at, {source}, event"):
            if row is None:
                report.unreadable_events += 1
            else:
                game_id, seq, at, who, text = row
                events.setdefault(int(game_id), []).append((int(seq), str(at), str(who), str(text)))
    finally:
        src.close()
    report.games_seen = len(games) + len(report.unreadable_games)
    report.events_seen = sum(len(rows) for rows in events.values()) + report.unreadable_events
    with GameStore(out) as store:
        for game_id, (created, settings, had_events) in sorted(games.items()):
            rows = events.get(game_id, [])
            try:
                kept = store.restore_game(game_id, created, json.loads(settings), rows)
            except (CribbageError, ValueError, TypeError):
                report.unreadable_games.append(game_id)
                continue
            report.games += 1
            report.events += kept
            had_events = max([had_events, len(rows), *(r[0] for r in rows)])
            if kept < had_events:
                report.short[game_id] = (kept, had_events)
    return report
