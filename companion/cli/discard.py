"""``crib discard``: which cards to lay away to the crib, by the hand's average count."""

from __future__ import annotations

import argparse

from companion.cli.base import print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "discard",
        help="rank the ways to discard to the crib",
        description="For the cards dealt (6, or 5 in the five- and three-player games), rank "
        "every choice of cards to keep by the hand's average show count over all unseen "
        "starters (the crib's value is not included).",
        epilog="example: crib discard 5H 5S JD QC 2H 9S",
    )
    p.add_argument("cards", nargs="+", metavar="CARD", help="the cards dealt to you")
    p.add_argument("--keep", type=int, default=None, help="cards to keep (default: 4, 3 from 5)")
    p.add_argument("--top", type=int, default=5, help="how many choices to show (default 5)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from cribbage.analysis import discard_values
    from cribbage.cards import parse_cards

    dealt = parse_cards(args.cards)
    keep = args.keep if args.keep is not None else 4
    options = discard_values(dealt, keep=keep)[: max(args.top, 1)]
    if args.json:
        print_json({"dealt": [c.name for c in dealt], "options": options})
        return 0
    print(f"{'keep':<14} {'lay away':<10} {'average':>7} {'best':>5} {'worst':>5}")
    for o in options:
        print(
            f"{' '.join(o['keep']):<14} {' '.join(o['discard']):<10} "
            f"{o['average']:>7.2f} {o['best']:>5} {o['worst']:>5}"
        )
    return 0
