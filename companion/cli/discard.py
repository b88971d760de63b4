"""``crib discard``: which cards to lay away to the crib, the crib's value included.

The figures come from :func:`cribbage.coach.advise_discards` (exact over every starter and
every way the other crib cards fall); the pegging figure is a model, shown beside them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.base import UsageError, print_json


def add_discard_options(p: argparse.ArgumentParser, when: str = "") -> None:
    """``--dealer | --pone``, ``--keep`` and ``--top``, as ``crib discard`` and ``crib check
    --discard`` take them; ``when`` starts each help ("with --discard: ")."""
    seat = p.add_mutually_exclusive_group()
    seat.add_argument("--dealer", dest="role", action="store_const", const="dealer",
                      help=f"{when}the crib is yours: its points add to the total")
    seat.add_argument("--pone", dest="role", action="store_const", const="pone",
                      help=f"{when}the crib is your opponent's: its points count against you")
    p.add_argument("--keep", type=int, default=None,
                   help=f"{when}cards to keep (default: 4 from 6, 3 from 5 as in the five-card game; "
                   "--keep 4 from 5 for the three- and four-player games)")
    p.add_argument("--top", type=_top, default=5,
                   help=f"{when}how many choices to show, 1 to {_max_top()} (default 5)")


def _max_top() -> int:
    from cribbage.coach.discard import MAX_TOP

    return MAX_TOP


def _top(text: str) -> int:
    """``--top``: a whole number of choices, 1 to :data:`cribbage.coach.discard.MAX_TOP` (as the
    page's ``top``); anything else is one line and exit 2.

    >>> _top("3")
    3
    >>> _top("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: how many choices to show: 1 to 20, not 0
    """
    try:
        top = int(text)
    except ValueError:
        top = None
    if top is None or not 1 <= top <= _max_top():
        raise argparse.ArgumentTypeError(
            f"how many choices to show: 1 to {_max_top()}, not {text[:20]}")
    return top


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "discard",
        help="rank the ways to discard to the crib",
        description="For the cards dealt (6, or 5 in the five-card, three- and four-player games), "
        "rank every choice of cards to keep by the total for your seat: the kept hand's average "
        "show over every unseen starter plus (dealer) or minus (pone) the crib's average over "
        "every starter and every way the other crib cards may fall. Without a seat the kept hand "
        "alone ranks them. The pegging column is a simulated average, never added to the total.",
        epilog="examples: crib discard 5H 5S JD QC 2H 9S --dealer | "
        "printf '5H 5S JD QC 2H 9S\\n' | crib discard --stdin --pone --json",
    )
    p.add_argument("cards", nargs="*", metavar="CARD", help="the cards dealt to you")
    add_discard_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--stdin", action="store_true",
                   help="read one deal a line and print one result a line (an unreadable line "
                   "prints {\"error\": ...} and the rest go on)")
    p.set_defaults(handler=run, role=None)


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


def _variant(dealt: int, keep: int) -> str:
    """The first variant that deals ``dealt`` and keeps ``keep`` (three-player for 4 of 5)."""
    from cribbage.game.settings import VARIANTS

    return next(v.name for v in VARIANTS.values() if v.dealt == dealt and v.kept == keep)


def advise(tokens: list[str], args: argparse.Namespace) -> Any:
    """The :class:`cribbage.coach.DiscardAdvice` for the cards named by ``tokens``, the seat in
    ``args.role`` and the cards kept in ``args.keep`` (also for ``crib check --discard``)."""
    from companion.cli.score import _cards
    from cribbage.cards import require_distinct
    from cribbage.coach import advise_discards

    dealt = _cards(tokens)
    keep = dealt_and_kept(len(dealt), args.keep)
    require_distinct(dealt)
    return advise_discards(dealt, args.role, variant=_variant(len(dealt), keep))


def run(args: argparse.Namespace) -> int:
    from cribbage.errors import CribbageError

    top = args.top
    if args.stdin:
        if args.cards:
            raise UsageError("give the cards either as arguments or on stdin, not both")
        for line in sys.stdin:
            tokens = line.replace(",", " ").split()
            try:
                if not tokens:
                    raise UsageError("an empty line: no cards dealt")
                result = advise(tokens, args).as_dict(top)
            except (CribbageError, UsageError) as exc:
                result = {"error": str(exc)}
            if args.json:
                print_json(result)
            elif "error" in result:
                print(f"{' '.join(tokens)}: error: {result['error']}")
            else:
                best = result["options"][0]
                print(f"{' '.join(result['dealt'])}: keep {' '.join(best['keep'])}, lay away "
                      f"{' '.join(best['discard'])}, total {best['total']:.2f}")
        return 0
    if not args.cards:
        raise UsageError("give the cards dealt (6, or 5), or --stdin")
    advice = advise(args.cards, args)
    if args.json:
        print_json(advice.as_dict(top))
        return 0
    print_table(advice, top)
    return 0


def print_table(advice: Any, top: int) -> None:
    """The first ``top`` choices as a table, the seat and the game above them."""
    total = {"dealer": "hand + crib", "pone": "hand - crib", None: "the hand alone; add --dealer or --pone"}
    role = advice.role or "no seat given"
    print(f"dealt: {' '.join(c.name for c in advice.dealt)}   {role}, {advice.variant} game "
          f"(total = {total[advice.role]})")
    print(f"{'keep':<12} {'lay away':<8} {'total':>6}  {'hand':>5} {'min-max':>7} {'sd':>4}  "
          f"{'crib':>5} {'min-max':>7} {'sd':>4}  {'pegging':>7}")
    for o in advice.options[:top]:
        pegging = "-" if o.pegging is None else f"{o.pegging:.1f}"
        print(f"{' '.join(c.name for c in o.keep):<12} {' '.join(c.name for c in o.discard):<8} "
              f"{o.total:>6.2f}  {o.hand:>5.2f} {f'{o.hand_min}-{o.hand_max}':>7} {o.hand_sd:>4.1f}  "
              f"{o.crib:>5.2f} {f'{o.crib_min}-{o.crib_max}':>7} {o.crib_sd:>4.1f}  {pegging:>7}")
