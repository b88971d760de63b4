"""Engine benchmark: batch scoring rate, full enumeration, and one itemised score.

Run: ``.venv/bin/python benchmarks/bench_engine.py`` (or ``make bench``). Pinned to one core.
Figures the issue asks for: batch ≥ 10 million hands/s on one core; ``crib enumerate`` (both
tables) under 5 s; one ``score`` with breakdown under 50 µs; the distribution exact.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import timeit

import numpy as np

from cribbage.analysis import all_four_card_hands, hands_with_starters, score_distribution
from cribbage.batch import score_batch
from cribbage.cards import PACK
from cribbage.show import score_hand, show_total


def main() -> int:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    print(f"engine benchmark, one core, numpy {np.__version__}")

    hands, starters = hands_with_starters(all_four_card_hands())
    score_batch(hands[:1000], starters[:1000])  # build the rank table once
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        score_batch(hands, starters)
        best = min(best, time.perf_counter() - start)
    rate = hands.shape[0] / best
    print(
        f"batch scorer: {hands.shape[0]:,} hands in {best:.3f} s = {rate / 1e6:.1f} M hands/s "
        f"(target >= 10 M/s) {'OK' if rate >= 10e6 else 'MISSED'}"
    )

    start = time.perf_counter()
    dist = score_distribution()
    elapsed = time.perf_counter() - start
    exact = (
        dist["hand"][0] == 1_009_008
        and dist["hand"][29] == 4
        and dist["crib"][0] == 1_022_208
        and all(dist["hand"][p] == 0 for p in (19, 25, 26, 27))
    )
    print(f"enumeration (hand and crib tables, in process): {elapsed:.2f} s; exact: {exact}")

    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "enumerate", "--json"], capture_output=True, check=True
    )
    whole = time.perf_counter() - start
    print(
        f"crib enumerate --json as a process: {whole:.2f} s (target < 5 s) "
        f"{'OK' if whole < 5 else 'MISSED'}  [{len(done.stdout)} bytes]"
    )

    rng = np.random.default_rng(1)
    deals = [[PACK[i] for i in rng.permutation(52)[:5]] for _ in range(2000)]
    calls = iter(deals * 50)

    def one() -> None:
        d = next(calls)
        score_hand(d[:4], d[4])

    n = 20_000
    per = min(timeit.repeat(one, number=n, repeat=3)) / n
    print(
        f"score_hand with breakdown: {per * 1e6:.1f} us per hand (target < 50 us) "
        f"{'OK' if per < 50e-6 else 'MISSED'}"
    )
    calls = iter(deals * 50)
    per_total = (
        min(timeit.repeat(lambda: (lambda d: show_total(d[:4], d[4]))(next(calls)), number=n, repeat=3)) / n
    )
    print(f"show_total (no breakdown): {per_total * 1e6:.1f} us per hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
