"""Coach benchmark: the review of a whole game (every deal's discards, both seats) and one
``POST /api/discard``.

Run: ``.venv/bin/python benchmarks/bench_review.py [--games 10] [--seed 31]``. Prints, over
random 121-point six-card games with every hand entered (``cribbage.game.simulate``), the
deals a game and the ms to review a game afresh (mean, max) and again (cached); then the ms of
one ``POST /api/discard`` through Flask's test client (mean, p95 of 100 random deals).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()

    from cribbage.cards import PACK
    from cribbage.coach import review as review_module
    from cribbage.coach.review import review_game
    from cribbage.game import Settings
    from cribbage.game.simulate import random_game

    rng = random.Random(args.seed)
    states = [random_game(Settings.from_json({}), rng)[0].to_json() for _ in range(args.games)]
    review_game(states[0])  # the rank tables are built on first use
    fresh, again, deals = [], [], []
    for state in states:
        review_module._review.cache_clear()
        t = time.perf_counter()
        review = review_game(state)
        fresh.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        review_game(state)
        again.append((time.perf_counter() - t) * 1000)
        deals.append(len(review["deals"]))
    print(f"review of a game ({statistics.mean(deals):.1f} deals, 2 seats): "
          f"{statistics.mean(fresh):.0f} ms mean, {max(fresh):.0f} ms max; "
          f"again (cached) {statistics.mean(again):.2f} ms")

    from companion.service import Companion
    from cribbage.gamelog import GameStore
    from web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        companion = Companion(GameStore(Path(tmp) / "games.sqlite3"), leds="none")
        app = create_app(companion, {"DATA_DIR": tmp, "TESTING": True})
        client = app.test_client()
        token = client.get("/api/session").get_json()["csrf"]
        times = []
        for _ in range(100):
            dealt = [c.name for c in rng.sample(PACK, 6)]
            t = time.perf_counter()
            r = client.post("/api/discard", json={"dealt": dealt, "role": rng.choice(["dealer", "pone"])},
                            headers={"X-CSRF-Token": token})
            times.append((time.perf_counter() - t) * 1000)
            assert r.status_code == 200, r.get_json()
        companion.close()
    times.sort()
    print(f"POST /api/discard (top 5 with why): {statistics.mean(times):.1f} ms mean, "
          f"p95 {times[94]:.1f} ms")


if __name__ == "__main__":
    main()
