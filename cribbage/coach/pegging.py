"""The pegging figure: points a kept hand pegs in the play, from a table of simulated plays.

The play depends on the cards' ranks alone, so the table is keyed by the kept hand's rank
multiset (1820 four-card ones for the six-card game, 455 three-card ones for the five-card
game) and holds, for each seat, the holder's average points pegged in the play (fifteens,
31s, pairs, runs, go and last card). It is built by simulation: the hand plays ``plays``
times as the pone (who leads) and as the dealer against an opponent's hand dealt at random
from the 48 cards left, both seats playing the greedy policy of :func:`greedy_lay`. The
same opponent hands serve both seats. The table ships as ``pegging.json`` beside this
module and is rebuilt with a progress bar by::

    python -m cribbage.coach.pegging [--plays 300] [--seed 1]

It is a model, not exact: the discards and the starter are not removed from the opponent's
pack, and real opponents play better or worse than the greedy policy. The coach shows it
beside the exact show figures and never adds it to their total. The three- and four-player
plays are not modelled (no figure).

>>> greedy_lay([10, 4], [9], 10)  # on a ten, the five (rank index 4) makes fifteen
4
>>> lay_points([4, 5, 3])  # 5 6 4: fifteen two and a run of three
5
>>> from cribbage.cards import parse_cards
>>> pegging_figure(parse_cards("5H 5S JD QC"), "dealer") > pegging_figure(parse_cards("5H 5S JD QC"), "pone")
True
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path

from cribbage.cards import RANKS, Card
from cribbage.progress import Progress, progress_bar

__all__ = ["TABLE_PATH", "build_table", "greedy_lay", "lay_points", "pegging_figure", "simulate_play"]

TABLE_PATH = Path(__file__).with_name("pegging.json")
"""Where the table lives: ``{"meta": {...}, "six-card": {"55JQ": [dealer, pone]}, ...}``."""

_VARIANTS = {"six-card": (4, False), "five-card": (3, True)}
"""Variants with a modelled play: cards kept, and whether the play is one series."""


_VALUES = tuple(min(r + 1, 10) for r in range(13))
_OF_A_KIND = (0, 0, 2, 6, 12)


def lay_points(series: Sequence[int], count: int | None = None) -> int:
    """Points the last card of ``series`` (rank indices 0-12, oldest first) pegs.

    The same rules as :func:`cribbage.play.score_lay`: fifteen 2, thirty-one 2, pairs 2, 6,
    12, the longest run at the tail. ``count`` is the series' count, if known.
    """
    if count is None:
        count = sum(_VALUES[r] for r in series)
    points = 2 if count == 15 or count == 31 else 0
    n = len(series)
    last = series[-1]
    same = 1
    while same < n and series[-1 - same] == last:
        same += 1
    if same > 1:
        points += _OF_A_KIND[same]
        return points  # a pair ends any run at the tail
    for length in range(n, 2, -1):
        tail = series[n - length :]
        if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
            return points + length
    return points


def greedy_lay(held: Sequence[int], series: Sequence[int], count: int) -> int:
    """The rank a greedy player lays from ``held`` (one that fits under 31 must exist).

    It lays what pegs most now, one point less for leaving the count at 5 or 21 (a ten
    answers with fifteen or 31), and then the highest card. Leading, it lays a card other
    than a five, under five if it has one (no fifteen in reply), else its highest.
    """
    fits = [r for r in held if count + _VALUES[r] <= 31]
    if not series:
        return max(fits, key=lambda r: (r != 4, _VALUES[r] < 5, _VALUES[r], r))
    best, best_worth = fits[0], None
    for r in set(fits):
        after = count + _VALUES[r]
        worth = (lay_points([*series, r], after) - (after == 5 or after == 21), _VALUES[r], r)
        if best_worth is None or worth > best_worth:
            best, best_worth = r, worth
    return best


Policy = Callable[[Sequence[int], Sequence[int], int], int]


def simulate_play(
    hands: Sequence[Sequence[int]],
    *,
    single_series: bool = False,
    policy: Policy = greedy_lay,
    log: list[tuple[int, int | None]] | None = None,
) -> list[int]:
    """Play two hands of rank indices, seat 0 (the pone) leading; points pegged per seat.

    ``log`` receives ``(seat, rank)`` for each card laid and ``(seat, None)`` for each go,
    so that a test can replay the play through :class:`cribbage.play.Play`.
    """
    held = [list(h) for h in hands]
    points = [0, 0]
    seat, count, last = 0, 0, -1
    series: list[int] = []
    gone = [False, False]
    while held[0] or held[1]:
        if any(count + _VALUES[r] <= 31 for r in held[seat]):
            rank = policy(held[seat], series, count)
            held[seat].remove(rank)
            series.append(rank)
            count += _VALUES[rank]
            points[seat] += lay_points(series, count)
            last = seat
            if log is not None:
                log.append((seat, rank))
            if count == 31:
                if single_series:
                    return points
                series, count, gone = [], 0, [False, False]
                seat = 1 - last
            elif not gone[1 - seat]:
                seat = 1 - seat
            continue
        if log is not None:
            log.append((seat, None))
        gone[seat] = True
        if gone[1 - seat]:
            points[last] += 1  # last card
            if single_series:
                return points
            series, count, gone = [], 0, [False, False]
            seat = 1 - last
        else:
            seat = 1 - seat
    if series and count < 31:
        points[last] += 1
    return points


def _key(ranks: Sequence[int]) -> str:
    return "".join(RANKS[r] for r in sorted(ranks))


def build_table(
    variant: str, plays: int, rng: random.Random, progress: Progress | None = None
) -> dict[str, list[float]]:
    """``{rank key: [points as dealer, points as pone]}`` for every kept hand of ``variant``."""
    kept, single = _VARIANTS[variant]
    hands = list(combinations_with_replacement(range(13), kept))
    table: dict[str, list[float]] = {}
    for done, hand in enumerate(hands, 1):
        pack = [r for r in range(13) for _ in range(4)]
        for r in hand:
            pack.remove(r)
        dealer = pone = 0
        for _ in range(plays):
            other = rng.sample(pack, kept)
            pone += simulate_play([hand, other], single_series=single)[0]
            dealer += simulate_play([other, hand], single_series=single)[1]
        table[_key(hand)] = [round(dealer / plays, 3), round(pone / plays, 3)]
        if progress is not None:
            progress(done, len(hands))
    return table


@cache
def _table() -> dict[str, dict[str, list[float]]]:
    """The shipped table; empty (no figures) if the file is missing or unreadable."""
    try:
        return json.loads(TABLE_PATH.read_text())
    except (OSError, ValueError):
        return {}


def pegging_figure(keep: Sequence[Card], role: str, variant: str = "six-card") -> float | None:
    """The holder's average points pegged with ``keep`` as ``role`` (dealer or pone).

    ``None`` for a variant whose play is not modelled.
    """
    row = _rows(variant).get(tuple(sorted(c.rank for c in keep)))
    return None if row is None else row[0 if role == "dealer" else 1]


@cache
def _rows(variant: str) -> dict[tuple[int, ...], list[float]]:
    """The table of ``variant`` keyed by sorted ranks (1-13), for quick look-ups."""
    return {tuple(RANKS.index(ch) + 1 for ch in key): row for key, row in _table().get(variant, {}).items()}


def main(argv: Sequence[str] | None = None) -> int:
    """Rebuild ``pegging.json`` (or write ``--out``)."""
    parser = argparse.ArgumentParser(
        prog="python -m cribbage.coach.pegging", description="Rebuild the pegging table by simulation."
    )
    parser.add_argument("--plays", type=int, default=300, help="plays per hand and seat (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", type=Path, default=TABLE_PATH, help="where to write the table")
    args = parser.parse_args(argv)
    if args.plays < 1:
        parser.error("--plays is at least 1")
    rng = random.Random(args.seed)
    data: dict[str, object] = {
        "meta": {
            "plays": args.plays,
            "seed": args.seed,
            "policy": "greedy_lay",
            "columns": ["dealer", "pone"],
            "rebuild": "python -m cribbage.coach.pegging",
        }
    }
    for variant in _VARIANTS:
        data[variant] = build_table(variant, args.plays, rng, progress_bar(variant))
    args.out.write_text(json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
