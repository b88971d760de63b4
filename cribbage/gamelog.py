"""The game log: every event of every game, appended to SQLite before it takes effect.

A database holds many games. Each event is checked by folding it into the game in memory;
only a legal event is written (a refused event is never stored, and the state is unchanged),
and the new state is returned once the row is committed (WAL journal, ``synchronous=FULL``,
so a pulled plug loses at most the event in flight). Corrections and undo are new rows that
supersede old ones: nothing is rewritten, and the state is always the fold of the rows. The one
deletion is a whole game the demo started, once a newer game replaces it
(:meth:`GameStore.delete_demo_game`): a game started anywhere else is never deleted.

>>> import tempfile, os
>>> store = GameStore(os.path.join(tempfile.mkdtemp(), "games.db"))
>>> game = store.new_game({"players": "Ann,Bob"})
>>> state = store.apply(game, {"type": "dealer", "seat": "B"})
>>> state = store.apply(game, {"type": "starter", "card": "JH"})
>>> state["scores"], state["phase"], [i["kind"] for i in state["last"]]
({'A': 0, 'B': 2}, 'play', ['heels'])
>>> [e["event"]["type"] for e in store.events(game)]
['dealer', 'starter']
>>> store.close()

Storage trouble is a :class:`~cribbage.errors.StorageError` (a full SD card, a read-only one, an
I/O error, a busy or damaged file), never a half-written game: the transaction is rolled back and
the state is what it was. At open a quick integrity check (``PRAGMA quick_check``) runs; a damaged
file opens read-only (:attr:`GameStore.damage` says what is wrong), answers what can still be
read, and refuses every write until ``crib game recover`` copies it out (:mod:`cribbage.recovery`).

Schema version (``PRAGMA user_version``) 2. Version 1, the first release, had no ``source``
column on events and no ``summary`` cache on games; :meth:`GameStore.migrate` brings such a
database up to date in place.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cribbage.errors import CribbageError, RuleError, StorageError
from cribbage.game import Game, Settings
from cribbage.game.limits import check_text
from cribbage.storage import DAMAGED, integrity_problems, open_error, storage_error

__all__ = ["DEMO_SOURCE", "SCHEMA_VERSION", "GameStore"]

SCHEMA_VERSION = 2
DEMO_SOURCE = "demo"
"""The ``source`` of the events a demo sends (``crib serve --demo``): a game whose first event
came from it is the demo's own, the only kind :meth:`GameStore.delete_demo_game` deletes."""
CHECK_SECONDS = 10.0
"""The longest the integrity check at open may take; a longer one is stopped and skipped."""

log = logging.getLogger("gamelog")
Connect = Callable[[str], sqlite3.Connection]

_SCHEMA_V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    event TEXT NOT NULL,
    UNIQUE (game_id, seq)
);
"""
"""The first release's schema, kept to build version-1 databases for the migration test."""

_MIGRATIONS: dict[int, str] = {
    # version 1 -> 2: who sent each event, and a cached summary per game for the list page.
    1: """
    ALTER TABLE events ADD COLUMN source TEXT NOT NULL DEFAULT 'unknown';
    ALTER TABLE games ADD COLUMN summary TEXT;
    """,
}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _connect(path: str) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=15, isolation_level=None, check_same_thread=False)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class GameStore:
    """Games and their events in one SQLite file; safe to share between threads.

    One connection (``check_same_thread=False``) is used under a lock; each write is one
    ``BEGIN IMMEDIATE`` transaction, so another process (the ``crib`` command beside the
    service) can write to the same file between two of ours: the store notices and folds
    the new rows.
    """

    def __init__(self, path: str | Path, *, connect: Connect | None = None,
                 check_seconds: float = CHECK_SECONDS) -> None:
        """Open (or create) the game log at ``path``. ``connect(path)`` opens the SQLite
        connection (the seam where tests inject storage faults); ``check_seconds`` bounds the
        integrity check."""
        self.path = str(path)
        self._lock = threading.RLock()
        self._cache: dict[int, Game] = {}
        self.damage: str | None = None
        """One line naming the damage found, or None for a sound file."""
        self.checked: bool = False
        """Whether the integrity check ran to the end at open."""
        try:
            self._db = (connect or _connect)(self.path)
        except sqlite3.Error as exc:
            raise open_error(exc, self.path) or CribbageError(
                f"cannot open {self.path} ({exc})") from None
        try:
            self._db.execute("PRAGMA busy_timeout = 15000")
            self._check_ours()
            problems = integrity_problems(self._db, check_seconds)
            self.checked = problems is not None
            if problems is None:
                log.warning("%s: integrity check stopped after %.0f s", self.path, check_seconds)
            elif problems:
                self._damaged(f"{self.path} is damaged ({problems[0]})")
                return
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            self.migrate()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise open_error(exc, self.path) or CribbageError(
                f"{self.path} is not a game database ({exc})") from None
        except BaseException:
            self._db.close()
            raise

    def _damaged(self, damage: str) -> None:
        """Stop writing: from now on the file is only read (SQLite's ``query_only``)."""
        if self.damage is None:
            self.damage = damage
            log.info("%s; reading what can be read, recording nothing: run crib game recover "
                      "--db %s --out NEW", damage, self.path)
        with suppress(sqlite3.Error):
            self._db.execute("PRAGMA query_only = ON")

    @contextmanager
    def _storage(self, *, writing: bool = False) -> Iterator[None]:
        """Turn SQLite's storage failures into a :class:`StorageError` (a damaged file stops
        every later write)."""
        try:
            yield
        except sqlite3.Error as exc:
            error = storage_error(exc, self.path, writing=writing)
            if error is None:
                raise
            if error.cause == "damaged":
                self._damaged(f"{self.path} is damaged ({exc})")
            raise error from exc

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One ``BEGIN IMMEDIATE`` ... ``COMMIT``; rolled back on any error (unless SQLite has
        already rolled it back, as it does on a full disk or an I/O error)."""
        if self.damage is not None:
            raise StorageError(DAMAGED, cause="damaged")
        with self._storage(writing=True):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error as exc:  # the error that brought us here is the one to report
                log.warning("%s: rollback failed (%s)", self.path, exc)

    def _check_ours(self) -> None:
        """Refuse, before changing anything, a database that is not a game log."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise CribbageError(f"{self.path} was written by a newer version (schema {version})")
        tables = {
            row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if (version == 0 and tables) or (version > 0 and not {"games", "events"} <= tables):
            raise CribbageError(f"{self.path} is a database but not a game log")

    # -- schema ----------------------------------------------------------------------------

    def migrate(self) -> int:
        """Create the schema or bring an older one up to :data:`SCHEMA_VERSION`."""
        with self._lock:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise CribbageError(
                    f"{self.path} was written by a newer version (schema {version})"
                )
            if version == SCHEMA_VERSION:
                return version
            started = version
            with self._transaction():
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version == 0:
                    tables = self._db.execute(
                        "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                    ).fetchone()[0]
                    if tables:
                        raise CribbageError(f"{self.path} is a database but not a game log")
                    for statement in _SCHEMA_V1.split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    version = 1
                while version < SCHEMA_VERSION:
                    for statement in _MIGRATIONS[version].split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    version += 1
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                if started:
                    self._fill_summaries()
            return version

    def _fill_summaries(self) -> None:
        missing = self._db.execute("SELECT id FROM games WHERE summary IS NULL").fetchall()
        for (game_id,) in missing:
            self._db.execute(
                "UPDATE games SET summary = ? WHERE id = ?",
                (_dumps(self._summary(self._load(game_id))), game_id),
            )

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -----------------------------------------------------------------------------

    def new_game(self, settings: dict[str, Any] | None = None) -> int:
        """Start a game with ``settings`` (see :meth:`Settings.from_json`); returns its id."""
        checked = Settings.from_json(settings or {})
        game = Game(checked)
        with self._lock:
            with self._transaction():
                cursor = self._db.execute(
                    "INSERT INTO games (created, settings, summary) VALUES (?, ?, ?)",
                    (_now(), _dumps(checked.to_json()), _dumps(self._summary(game))),
                )
            game_id = int(cursor.lastrowid or 0)
            self._cache[game_id] = game
            return game_id

    def latest_game(self) -> int | None:
        """The id of the most recent game, or None in an empty database."""
        with self._lock, self._storage():
            row = self._db.execute("SELECT max(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

    def games(self) -> list[dict[str, Any]]:
        """A summary of every game, newest first (id, created, players, winner, skunk, ...)."""
        with self._lock, self._storage():
            rows = self._db.execute(
                "SELECT id, created, settings, summary FROM games ORDER BY id DESC"
            ).fetchall()
            out = []
            for game_id, created, settings, summary in rows:
                data = json.loads(summary) if summary else self._summary(self._load(game_id))
                out.append({"id": game_id, "created": created,
                            "settings": json.loads(settings), **data})
        return out

    def delete_demo_game(self, game_id: int) -> bool:
        """Delete game ``game_id`` and its events, in one transaction, if the demo started it (its
        first event's ``source`` is :data:`DEMO_SOURCE`) and a newer game has replaced it; returns
        whether it was deleted. Anything else is kept and answers False: a game started on the
        page or by the ``crib`` command (even one the demo later played into), a game with no
        events yet, the newest game (so its number is never given to another game: SQLite would
        reuse the highest), no such game, or not a game number at all. Storage trouble is a
        :class:`~cribbage.errors.StorageError`, and the game is then as it was.

        >>> store = GameStore(":memory:")
        >>> demo = store.new_game({"players": ["Ann", "Bob"]})
        >>> _ = store.apply(demo, {"type": "dealer", "seat": "A"}, source=DEMO_SOURCE)
        >>> store.delete_demo_game(demo)  # the newest game is kept
        False
        >>> page = store.new_game({"players": ["Ann", "Bob"]})
        >>> store.delete_demo_game(demo), store.delete_demo_game(page), store.delete_demo_game("1")
        (True, False, False)
        >>> [g["id"] for g in store.games()] == [page]
        True
        >>> store.close()
        """
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 < game_id < 2**63:
            return False
        with self._lock:
            with self._transaction():
                first = self._db.execute(
                    "SELECT source FROM events WHERE game_id = ? ORDER BY seq LIMIT 1", (game_id,)
                ).fetchone()
                newest = self._db.execute("SELECT max(id) FROM games").fetchone()[0]
                if first is None or first[0] != DEMO_SOURCE or newest is None or game_id >= newest:
                    return False
                self._db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
                self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            self._cache.pop(game_id, None)
            return True

    def restore_game(self, game_id: int, created: str, settings: dict[str, Any],
                     rows: list[tuple[int, str, str, str]]) -> int:
        """Write a game copied from another log (``crib game recover``) under its own id, with
        its events as ``(seq, at, source, event JSON)``: the longest run from event 1 that the
        rules accept (a missing number or a refused event ends it). Returns the events kept."""
        checked = Settings.from_stored(settings)
        run: list[tuple[int, str, str, str]] = []
        events: list[dict[str, Any]] = []
        for k, (seq, at, source, text) in enumerate(sorted(rows), 1):
            if seq != k:
                break
            try:
                events.append(json.loads(text))
            except ValueError:
                break
            run.append((seq, at, source, text))
        try:  # one fold of the whole run (the usual case) ...
            game = Game.replay(checked, events)
        except (CribbageError, ValueError, TypeError, KeyError, AttributeError):
            game = Game(checked)  # ... else event by event, up to the first that fails
            for k, event in enumerate(events):
                try:
                    game = game.apply(event)
                except (CribbageError, ValueError, TypeError, KeyError, AttributeError):
                    del run[k:]
                    break
        kept = [(game_id, seq, at, source, text) for seq, at, source, text in run]
        with self._lock:
            with self._transaction():
                self._db.execute(
                    "INSERT INTO games (id, created, settings, summary) VALUES (?, ?, ?, ?)",
                    (game_id, created, _dumps(game.settings.to_json()), _dumps(self._summary(game))),
                )
                self._db.executemany(
                    "INSERT INTO events (game_id, seq, at, source, event) VALUES (?, ?, ?, ?, ?)",
                    kept,
                )
            self._cache[game_id] = game
        return len(kept)

    # -- events ----------------------------------------------------------------------------

    def apply(self, game_id: int, event: dict[str, Any], *, source: str = "cli") -> dict[str, Any]:
        """Check ``event``, append it, and return the new state.

        Raises :class:`~cribbage.errors.RuleError` (or another ``CribbageError``) for an event
        the rules refuse; nothing is written then.
        """
        return self.apply_many(game_id, [event], source=source)

    def apply_many(
        self, game_id: int, events: Iterable[dict[str, Any]], *, source: str = "cli"
    ) -> dict[str, Any]:
        """Apply several events in one transaction: all are stored, or none (the first refused
        raises, its position in the message)."""
        events = list(events)
        source = check_text(source, "source")[:40]
        with self._lock:
            try:
                with self._transaction():
                    game = self._apply_rows(game_id, events, source)
            except BaseException:
                self._cache.pop(game_id, None)
                raise
            self._cache[game_id] = game
            with self._storage():
                return self._state(game_id, game)

    def _apply_rows(self, game_id: int, events: list[dict[str, Any]], source: str) -> Game:
        """Fold ``events`` into the game and write their rows (inside a transaction)."""
        game = self._load(game_id)
        rows = []
        for k, event in enumerate(events):
            try:
                game = game.apply(event)
            except CribbageError as exc:
                if len(events) > 1:
                    exc.args = (f"event {k + 1} of {len(events)}: {exc}",)
                raise
            rows.append((game_id, len(game.log), _now(), source[:40],
                         _dumps(game.log[-1])))
        self._db.executemany(
            "INSERT INTO events (game_id, seq, at, source, event) VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        self._db.execute(
            "UPDATE games SET summary = ? WHERE id = ?",
            (_dumps(self._summary(game)), game_id),
        )
        return game

    def state(self, game_id: int) -> dict[str, Any]:
        """The state of a game as JSON (docs/game.md), with its id and the match tally."""
        with self._lock, self._storage():
            return self._state(game_id, self._load(game_id))

    def game(self, game_id: int) -> Game:
        """The folded :class:`Game` itself."""
        with self._lock, self._storage():
            return self._load(game_id)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """Every stored event of a game, in order.

        Each: ``id`` (its number in the game, what ``correct`` refers to), ``at`` (ISO time,
        UTC), ``source``, ``event``, ``superseded_by`` (the number of the correction or undo
        that replaced it, or None), ``points`` (the awards it produces in the game as it now
        stands; for a correction, those of the event it corrects) and ``scores`` (after it;
        None once superseded). See :meth:`cribbage.game.Game.rows`.
        """
        with self._lock, self._storage():
            game = self._load(game_id)
            rows = self._db.execute(
                "SELECT seq, at, source, event FROM events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        folded = game.rows()
        return [
            {"id": seq, "at": at, "source": source, "event": json.loads(event), **folded[seq - 1]}
            for seq, at, source, event in rows
        ]

    # -- internals -------------------------------------------------------------------------

    def _settings(self, game_id: int) -> Settings:
        row = self._db.execute("SELECT settings FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise RuleError(f"there is no game {game_id} in {self.path}", rule="game")
        return Settings.from_stored(json.loads(row[0]))

    def _load(self, game_id: int) -> Game:
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 < game_id < 2**63:
            raise RuleError(f"there is no game {game_id!r} in {self.path}", rule="game")
        count = self._db.execute(
            "SELECT count(*) FROM events WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
        cached = self._cache.get(game_id)
        if cached is not None and len(cached.log) == count:
            return cached
        settings = self._settings(game_id)
        log = [
            json.loads(row[0])
            for row in self._db.execute(
                "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
        game = Game.replay(settings, log)
        self._cache[game_id] = game
        return game

    @staticmethod
    def _summary(game: Game) -> dict[str, Any]:
        s = game.settings
        return {
            "variant": s.variant.name,
            "target": s.target,
            "players": list(s.players),
            "sides": [{"id": side, "name": name} for side, name in s.sides],
            "scores": dict(game.scores),
            "phase": game.phase,
            "winner": game.winner,
            "winner_name": game.side_name(game.winner),
            "skunk": game.skunk,
            "game_points": {None: 1, "skunk": 2, "double": 4}[game.skunk]
            if game.winner else None,
            "deals": game.deals,
            "events": len(game.log),
        }

    def _match(self, players: list[str], variant: str) -> dict[str, Any]:
        """The tally of finished games between the same players: a win 1, skunk 2, double 4."""
        points: dict[str, int] = {}
        wins: dict[str, int] = {}
        games = 0
        rows = self._db.execute(
            "SELECT json_extract(summary, '$.players'), json_extract(summary, '$.winner_name'),"
            " json_extract(summary, '$.game_points') FROM games"
            " WHERE json_extract(summary, '$.winner') IS NOT NULL"
            " AND json_extract(summary, '$.variant') = ?",
            (variant,),
        )
        for names, winner, game_points in rows:
            if json.loads(names) != players:
                continue
            games += 1
            points[winner] = points.get(winner, 0) + int(game_points)
            wins[winner] = wins.get(winner, 0) + 1
        return {"games": games, "points": points, "wins": wins}

    def _state(self, game_id: int, game: Game) -> dict[str, Any]:
        created = self._db.execute(
            "SELECT created FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        state = {"game": game_id, "created": created[0] if created else None, **game.to_json()}
        state["match"] = self._match(list(game.settings.players), game.settings.variant.name)
        return state
