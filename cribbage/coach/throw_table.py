"""The throw table, read: how likely a reasonable opponent lays each rank pair away.

The table counts, over random six-card deals, the two ranks a thrower lays away when it keeps
the best choice by :func:`cribbage.coach.advise_discards`' ``total`` for its seat: ``dealer``
(to its own crib) and ``pone`` (to the opponent's). One throw per deal and seat, so each
seat's counts sum to the number of deals. The rank pair is two rank letters, lower first
(``"5J"``, ``"55"``): 91 of them. The table ships as ``throws.json`` beside this module;
:mod:`cribbage.coach.throws` builds it (and imports the coach to do so: this module imports
nothing of the coach, so :mod:`cribbage.coach.discard` reads the table without a cycle).

:func:`card_pair_weights` turns a seat's counts into a weight for each pair of *cards*: the
count divided by the card pairs of that rank pair in a full pack (16, or 6 for a pair of one
rank), so a thrower who lays away at random gives every card pair the same weight.

>>> w = card_pair_weights({"55": 6, "5J": 16})
>>> float(w[4, 4]), float(w[4, 10]), float(w[10, 4]), float(w[0, 1])
(1.0, 1.0, 1.0, 0.0)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cribbage.cards import RANKS

__all__ = ["SEATS", "TABLE_PATH", "card_pair_weights", "every_pair_key", "pair_key", "throw_weights"]

TABLE_PATH = Path(__file__).with_name("throws.json")
"""Where the table lives: ``{"meta": {"deals": N, ...}, "dealer": {"5J": n, ...}, "pone": {...}}``."""

SEATS = ("dealer", "pone")
"""The thrower's seats the table counts."""


def pair_key(a: int, b: int) -> str:
    """Two rank indices (0 ace .. 12 king) as the table's key, lower rank first.

    >>> pair_key(10, 4), pair_key(0, 0)
    ('5J', 'AA')
    """
    lo, hi = sorted((a, b))
    return RANKS[lo] + RANKS[hi]


def every_pair_key() -> list[str]:
    """The 91 keys, in the order of ``combinations_with_replacement(range(13), 2)``.

    >>> keys = every_pair_key(); len(keys), keys[:2], keys[-1]
    (91, ['AA', 'A2'], 'KK')
    """
    return [pair_key(a, b) for a, b in combinations_with_replacement(range(13), 2)]


def card_pair_weights(counts: Mapping[str, float]) -> npt.NDArray[np.float64]:
    """A symmetric ``(13, 13)`` weight per card pair of ranks ``(a, b)``: ``counts`` over the pack's pairs.

    >>> float(card_pair_weights({"AA": 3})[0, 0])
    0.5
    """
    w = np.zeros((13, 13), dtype=np.float64)
    for a, b in combinations_with_replacement(range(13), 2):
        w[a, b] = w[b, a] = float(counts.get(pair_key(a, b), 0)) / (6 if a == b else 16)
    return w


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
    """The shipped table's card pair weights for a thrower in ``seat``; ``None`` without a table
    (or for a seat it does not count).

    >>> throw_weights("dealer").shape
    (13, 13)
    """
    counts = _table().get(seat)
    return card_pair_weights(counts) if isinstance(counts, dict) else None
