"""``crib discard``: which cards to lay away to the crib, by the hand's average count."""

from __future__ import annotations

import argparse

from companion.cli.base import UsageError, print_json


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
    p.add_argument("--keep", type=int, default=None,
                   help="cards to keep (default: 4 from 6, 3 from 5 as in the five-card game; "
                   "--keep 4 from 5 for the three- and four-player games)")
    p.add_argument("--top", type=int, default=5, help="how many choices to show (default 5)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run)


def dealt_and_kept(dealt: int, keep: int | None) -> int:
    """The cards to keep from ``dealt`` cards (``keep``, or the default), as some variant deals.

    The variants' deals are the one source: 6 dealt keep 4; 5 dealt keep 3 (the five-card game,
    the default) or 4 (three- and four-player).

    >>> dealt_and_kept(6, None), dealt_and_kept(5, None), dealt_and_kept(5, 4)
    (4, 3, 4)
    >>> dealt_and_kept(7, None)
    Traceback (most recent call last):
    ...
    companion.cli.base.UsageError: 7 cards given: a deal is 6 cards (or 5 in the five-card, ... games)
    """
    from cribbage.game.settings import VARIANTS

    kept = {v.name: v.kept for v in VARIANTS.values() if v.dealt == dealt}
    if not kept:
        sizes = sorted({v.dealt for v in VARIANTS.values()}, reverse=True)
        others = [name for name, v in VARIANTS.items() if v.dealt != sizes[0]]
        raise UsageError(f"{dealt} card{'s' if dealt != 1 else ''} given: a deal is {sizes[0]} cards "
                         f"(or {', '.join(map(str, sizes[1:]))} in the {_and(others)} games)")
    if keep is None:
        return min(kept.values())
    if keep not in kept.values():
        choices = " or ".join(str(k) for k in sorted(set(kept.values())))
        raise UsageError(f"--keep {keep}: from {dealt} cards a hand keeps {choices}")
    return keep


def _and(names: list[str]) -> str:
    """``['a', 'b', 'c']`` as ``'a, b and c'``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def run(args: argparse.Namespace) -> int:
    from cribbage.analysis import discard_values
    from cribbage.cards import parse_cards

    dealt = parse_cards(args.cards)
    keep = dealt_and_kept(len(dealt), args.keep)
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
