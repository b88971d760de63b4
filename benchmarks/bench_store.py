"""Figures for the game log's integrity check at open and for ``crib game recover``.

Run: ``.venv/bin/python benchmarks/bench_store.py [--games 1000] [--dir DIR] [--no-recover]``

Records a few whole random games (six-card, hands known: the most events per game) and copies
their rows by SQL until the file holds ``--games`` games, a realistic log of years of play. Then
times ``PRAGMA quick_check`` alone, the whole open of :class:`cribbage.gamelog.GameStore` (the
check included), and, on a copy with 8 KB of garbage written into its middle,
:func:`cribbage.recovery.recover`. The file is in the page cache (just written): a cold SD card
reads it once more. On a shared machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cribbage.game import Settings
from cribbage.game.simulate import random_game
from cribbage.gamelog import GameStore
from cribbage.recovery import recover
from cribbage.storage import integrity_problems


def build(path: Path, games: int, distinct: int, seed: int) -> int:
    """A log of ``games`` games (``distinct`` played, the rest copies); its event count."""
    rng = random.Random(seed)
    settings = Settings.from_json({"players": "Ann,Bob"})
    with GameStore(path) as store:
        for _ in range(distinct):
            _, events = random_game(settings, rng, hands_known=True)
            store.apply_many(store.new_game(settings.to_json()), events, source="bench")
    db = sqlite3.connect(path, isolation_level=None)
    with db:
        for first in range(distinct + 1, games + 1, distinct):
            offset = first - 1
            db.execute("INSERT INTO games (id, created, settings, summary) SELECT id + ?, created, "
                       "settings, summary FROM games WHERE id <= ? AND id + ? <= ?",
                       (offset, distinct, offset, games))
            db.execute("INSERT INTO events (game_id, seq, at, source, event) SELECT game_id + ?, "
                       "seq, at, source, event FROM events WHERE game_id <= ? AND game_id + ? <= ?",
                       (offset, distinct, offset, games))
    events = int(db.execute("SELECT count(*) FROM events").fetchone()[0])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return events


def timed(fn, runs: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games in the log (default 1000)")
    parser.add_argument("--distinct", type=int, default=20, help="games actually played (20)")
    parser.add_argument("--dir", help="where to put the files (default: a temp dir on disk)")
    parser.add_argument("--seed", type=int, default=121)
    parser.add_argument("--no-recover", action="store_true", help="skip the recovery figure")
    args = parser.parse_args(argv)

    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench_store_", dir=Path.cwd()))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "games.sqlite3"
    for old in folder.glob("games.sqlite3*"):
        old.unlink()
    events = build(path, args.games, args.distinct, args.seed)
    size = path.stat().st_size
    print(f"log: {args.games} games, {events} events, {size / 1e6:.1f} MB ({path})")

    def check() -> None:
        db = sqlite3.connect(path)
        assert integrity_problems(db) == []
        db.close()

    def open_store() -> None:
        with GameStore(path) as store:
            assert store.damage is None and store.checked

    print(f"PRAGMA quick_check: median {timed(check) * 1000:.0f} ms "
          f"({size / 1e6 / max(timed(check, 1), 1e-9):.0f} MB/s)")
    print(f"GameStore open with the check: median {timed(open_store) * 1000:.0f} ms")

    if not args.no_recover:
        damaged, out = folder / "damaged.sqlite3", folder / "recovered.sqlite3"
        shutil.copy(path, damaged)
        out.unlink(missing_ok=True)
        data = bytearray(damaged.read_bytes())
        at = len(data) // 2 // 4096 * 4096
        data[at:at + 8192] = random.Random(args.seed).randbytes(8192)
        damaged.write_bytes(bytes(data))
        start, cpu = time.perf_counter(), time.process_time()
        report = recover(damaged, out)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"crib game recover: {took:.1f} s, {cpu:.1f} s of CPU ({report.summary()}; "
              f"{report.events_seen / cpu:,.0f} events per CPU second)")
    if not args.dir:
        shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
