"""Building the throw table behind ``crib_weighted``: how often a reasonable opponent lays each
rank pair away.

:func:`build_counts` plays random six-card deals through :func:`cribbage.coach.advise_discards`
and counts the rank pair each seat throws with its best ``total`` (the table's format and how
it is read are in :mod:`cribbage.coach.throw_table`, which the coach imports; this module
imports the coach, never the other way round). The table ships as ``throws.json`` and is
rebuilt with a progress bar by::

    python -m cribbage.coach.throws [--deals 20000] [--seed 1]

The reading names (:func:`pair_key`, :func:`card_pair_weights`, :func:`throw_weights`,
:data:`TABLE_PATH`, ...) are here too, as they always were.

>>> import random
>>> counts = build_counts(2, random.Random(1))
>>> sorted(counts), sum(counts["dealer"].values()), len(counts["pone"])
(['dealer', 'pone'], 2, 91)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from cribbage.cards import PACK
from cribbage.coach.discard import advise_discards
from cribbage.coach.throw_table import (
    SEATS,
    TABLE_PATH,
    card_pair_weights,
    every_pair_key,
    pair_key,
    throw_weights,
)
from cribbage.progress import Progress, progress_bar

__all__ = [
    "SEATS",
    "TABLE_PATH",
    "build_counts",
    "card_pair_weights",
    "every_pair_key",
    "main",
    "pair_key",
    "throw_weights",
]


def build_counts(
    deals: int, rng: random.Random, progress: Progress | None = None
) -> dict[str, dict[str, int]]:
    """``{seat: {rank pair: throws}}`` over ``deals`` random six-card deals, every pair listed."""
    counts = {seat: dict.fromkeys(every_pair_key(), 0) for seat in SEATS}
    for done in range(1, deals + 1):
        dealt = rng.sample(PACK, 6)
        for seat in SEATS:
            a, b = advise_discards(dealt, seat, pegging=False).options[0].discard
            counts[seat][pair_key(a.rank - 1, b.rank - 1)] += 1
        if progress is not None:
            progress(done, deals)
    return counts


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
