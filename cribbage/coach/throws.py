"""How likely a reasonable opponent lays each rank pair away: the table behind ``crib_weighted``.

The table counts, over random six-card deals, the two ranks a thrower lays away when it keeps
the best choice by :func:`cribbage.coach.advise_discards`' ``total`` for its seat: ``dealer``
(to its own crib) and ``pone`` (to the opponent's). One throw per deal and seat, so each
seat's counts sum to the number of deals. The rank pair is two rank letters, lower first
(``"5J"``, ``"55"``): 91 of them. The table ships as ``throws.json`` beside this module and
is rebuilt with a progress bar by::

    python -m cribbage.coach.throws [--deals 20000] [--seed 1]

:func:`card_pair_weights` turns a seat's counts into a weight for each pair of *cards*: the
count divided by the card pairs of that rank pair in a full pack (16, or 6 for a pair of one
rank), so a thrower who lays away at random gives every card pair the same weight.

>>> w = card_pair_weights({"55": 6, "5J": 16})
>>> float(w[4, 4]), float(w[4, 10]), float(w[10, 4]), float(w[0, 1])
(1.0, 1.0, 1.0, 0.0)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cribbage.cards import PACK, RANKS
from cribbage.progress import Progress, progress_bar

__all__ = ["TABLE_PATH", "build_counts", "card_pair_weights", "pair_key", "throw_weights"]

TABLE_PATH = Path(__file__).with_name("throws.json")
"""Where the table lives: ``{"meta": {"deals": N, ...}, "dealer": {"5J": n, ...}, "pone": {...}}``."""

SEATS = ("dealer", "pone")


def pair_key(a: int, b: int) -> str:
    """Two rank indices (0 ace .. 12 king) as the table's key, lower rank first.

    >>> pair_key(10, 4), pair_key(0, 0)
    ('5J', 'AA')
    """
    lo, hi = sorted((a, b))
    return RANKS[lo] + RANKS[hi]


def every_pair_key() -> list[str]:
    """The 91 keys, in the order of ``combinations_with_replacement(range(13), 2)``."""
    return [pair_key(a, b) for a, b in combinations_with_replacement(range(13), 2)]


def card_pair_weights(counts: Mapping[str, float]) -> npt.NDArray[np.float64]:
    """A symmetric ``(13, 13)`` weight per card pair of ranks ``(a, b)``: ``counts`` over the pack's pairs."""
    w = np.zeros((13, 13), dtype=np.float64)
    for a, b in combinations_with_replacement(range(13), 2):
        w[a, b] = w[b, a] = float(counts.get(pair_key(a, b), 0)) / (6 if a == b else 16)
    return w


def build_counts(
    deals: int, rng: random.Random, progress: Progress | None = None
) -> dict[str, dict[str, int]]:
    """``{seat: {rank pair: throws}}`` over ``deals`` random six-card deals, every pair listed."""
    from cribbage.coach.discard import advise_discards

    counts = {seat: dict.fromkeys(every_pair_key(), 0) for seat in SEATS}
    for done in range(1, deals + 1):
        dealt = rng.sample(PACK, 6)
        for seat in SEATS:
            a, b = advise_discards(dealt, seat, pegging=False).options[0].discard
            counts[seat][pair_key(a.rank - 1, b.rank - 1)] += 1
        if progress is not None:
            progress(done, deals)
    return counts


@cache
def _table() -> dict[str, dict[str, int]]:
    """The shipped table; empty (no weighted figure) if the file is missing or unreadable."""
    try:
        data = json.loads(TABLE_PATH.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and all(isinstance(data.get(s), dict) for s in SEATS) else {}


@cache
def throw_weights(seat: str) -> npt.NDArray[np.float64] | None:
    """The shipped table's card pair weights for a thrower in ``seat``; ``None`` without a table."""
    table = _table()
    return card_pair_weights(table[seat]) if table else None


def main(argv: Sequence[str] | None = None) -> int:
    """Rebuild ``throws.json`` (or write ``--out``)."""
    parser = argparse.ArgumentParser(
        prog="python -m cribbage.coach.throws", description="Rebuild the throw table by simulation."
    )
    parser.add_argument("--deals", type=int, default=20000, help="random six-card deals (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", type=Path, default=TABLE_PATH, help="where to write the table")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals is at least 1")
    counts = build_counts(args.deals, random.Random(args.seed), progress_bar("deals"))
    data: dict[str, object] = {
        "meta": {
            "deals": args.deals,
            "seed": args.seed,
            "policy": "the best total of advise_discards for the thrower's seat",
            "rebuild": "python -m cribbage.coach.throws",
        },
        **counts,
    }
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
