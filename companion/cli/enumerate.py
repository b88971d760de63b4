"""``crib enumerate``: the score distribution of every (4-card hand, starter) pair."""

from __future__ import annotations

import argparse
import time

from companion.cli.base import print_json
from cribbage.progress import progress_bar


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "enumerate",
        help="score all 12,994,800 hands and print the distribution",
        description="Score every (4-card hand, starter) pair as a hand and as a crib with the "
        "batch scorer and print how many score each number of points.",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from cribbage.analysis import score_distribution

    start = time.perf_counter()
    result = score_distribution(progress=progress_bar("scoring", tty_only=True))
    result["seconds"] = round(time.perf_counter() - start, 3)
    if args.json:
        print_json(
            {
                "hands": result["hands"],
                "hand": {str(k): v for k, v in result["hand"].items()},
                "crib": {str(k): v for k, v in result["crib"].items()},
                "seconds": result["seconds"],
            }
        )
        return 0
    print(f"{result['hands']:,} (hand, starter) pairs scored in {result['seconds']} s")
    print(f"{'points':>6} {'hand':>12} {'crib':>12}")
    for points in range(30):
        print(f"{points:>6} {result['hand'][points]:>12,} {result['crib'][points]:>12,}")
    return 0
