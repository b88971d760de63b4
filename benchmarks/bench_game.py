"""Figures for the game log: one event with its commit, and a whole game replayed from SQLite.

Run: ``.venv/bin/python benchmarks/bench_game.py [--games 5] [--dir DIR]``

Plays random legal 121-point six-card games with whole hands known (the most events per
game), writes every event through :class:`cribbage.gamelog.GameStore` (WAL, synchronous=FULL,
one commit per event), then opens the file afresh and replays each game from its rows. The
targets (issue 3): one event with its commit under 5 ms; a recorded 121-point game (hundreds of
events) replayed from SQLite under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cribbage.game import Settings
from cribbage.game.simulate import random_game
from cribbage.gamelog import GameStore


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games to record (default 5)")
    parser.add_argument("--dir", help="where to put the database (default: a temp dir on disk)")
    parser.add_argument("--seed", type=int, default=121)
    parser.add_argument("--many", type=int, default=1000,
                        help="games in the file for the last figure (default 1000)")
    args = parser.parse_args(argv)

    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench_game_", dir=Path.cwd()))
    path = folder / "bench.db"
    path.unlink(missing_ok=True)
    rng = random.Random(args.seed)
    settings = Settings.from_json({"players": "Ann,Bob"})

    per_event: list[float] = []
    ids: list[int] = []
    lengths: list[int] = []
    with GameStore(path) as store:
        for _ in range(args.games):
            _, events = random_game(settings, rng, hands_known=True)
            gid = store.new_game(settings.to_json())
            for event in events:
                start = time.perf_counter()
                store.apply(gid, event, source="bench")
                per_event.append(time.perf_counter() - start)
            ids.append(gid)
            lengths.append(len(events))

    replays: list[float] = []
    for gid in ids:
        start = time.perf_counter()
        with GameStore(path) as fresh:  # nothing cached: read every row and fold
            state = fresh.state(gid)
        replays.append(time.perf_counter() - start)
        assert state["winner"] is not None

    # a file that has seen many games: the match tally and the list page read them all
    with GameStore(path) as store:
        for _ in range(args.many - len(ids) - 1):
            store.new_game(settings.to_json())
        gid = store.new_game(settings.to_json())
        store.apply(gid, {"type": "dealer", "seat": "A"})
        many: list[float] = []
        for _ in range(50):
            start = time.perf_counter()
            store.apply(gid, {"type": "adjust", "seat": "B", "points": 1, "reason": "bench"})
            many.append(time.perf_counter() - start)
        start = time.perf_counter()
        listed = len(store.games())
        listing = time.perf_counter() - start

    per_event.sort()
    p95 = per_event[int(len(per_event) * 0.95)]
    print(f"database: {path} (WAL, synchronous=FULL)")
    print(f"games recorded: {len(ids)}, events per game: {min(lengths)}-{max(lengths)} "
          f"(mean {statistics.mean(lengths):.0f})")
    print(f"one event with its commit: median {_ms(statistics.median(per_event))}, "
          f"p95 {_ms(p95)}, max {_ms(per_event[-1])} over {len(per_event)} events "
          f"(target < 5 ms)")
    print(f"replay of a whole game from SQLite (open, read, fold, state): median "
          f"{_ms(statistics.median(replays))}, max {_ms(max(replays))} (target < 100 ms)")
    print(f"with {listed} games in the file: one event with its commit median "
          f"{_ms(statistics.median(many))}; the list of games {_ms(listing)}")
    ok = statistics.median(per_event) < 0.005 and max(replays) < 0.100
    print("OK" if ok else "SLOWER THAN THE TARGETS")
    if not args.dir:
        path.unlink(missing_ok=True)
        for extra in ("-wal", "-shm"):
            Path(str(path) + extra).unlink(missing_ok=True)
        folder.rmdir()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
