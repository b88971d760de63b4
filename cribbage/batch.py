"""Scoring many hands at once with NumPy, for analysis.

Hands are arrays of card indices (``Card.index``, 0–51): ``hands`` of shape ``(N, 4)`` (or
``(N, 3)`` for the five-card game) and ``starters`` of shape ``(N,)``. Fifteens, pairs and runs
depend only on the ranks, so they come from one table indexed by the five ranks in order
(13⁵ entries, built once by the same rules as :mod:`cribbage.show`); flushes and nobs are a few
comparisons of suits.

>>> import numpy as np
>>> from cribbage.cards import parse_cards
>>> hands = np.array([[c.index for c in parse_cards("5C 5D 5H JS")],
...                   [c.index for c in parse_cards("AS 3H 7D 9C")]], dtype=np.uint8)
>>> starters = np.array([parse_cards("5S")[0].index, parse_cards("KH")[0].index], dtype=np.uint8)
>>> score_batch(hands, starters).tolist()
[29, 0]
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from cribbage.errors import CardError

__all__ = ["cards_array", "rank_points", "rank_table", "score_batch"]

_INDEX = np.arange(52, dtype=np.int32)
_RANK0 = (_INDEX // 4).astype(np.int32)
_SUIT = (_INDEX % 4).astype(np.uint8)
# For nobs: the suit of a jack, 255 for any other card (never equal to a suit).
_JACK_SUIT = np.where(_RANK0 == 10, _SUIT, 255).astype(np.uint8)


@cache
def rank_table(n: int) -> npt.NDArray[np.uint8]:
    """Points from fifteens, pairs and runs for every ordered tuple of ``n`` ranks (0–12).

    Entry ``sum(r[i] * 13**(n-1-i))`` holds the points of ranks ``r``; ``n`` is 4 or 5.

    >>> int(rank_table(5)[((((4 * 13 + 4) * 13 + 4) * 13 + 10) * 13) + 4])  # 5 5 5 J 5
    28
    """
    if n not in (4, 5):
        raise ValueError("rank tables exist for 4 and 5 cards")
    grid = np.indices((13,) * n, dtype=np.int16).reshape(n, -1)  # (n, 13**n)
    return rank_points(grid)


def rank_points(grid: npt.NDArray[np.integer]) -> npt.NDArray[np.uint8]:
    """Points from fifteens, pairs and runs of each column of ``grid``, ranks 0–12 of shape ``(n, N)``.

    >>> rank_points(np.array([[4], [4], [4], [10], [4]])).tolist()  # 5 5 5 J 5
    [28]
    """
    grid = np.asarray(grid, dtype=np.int16)
    n = grid.shape[0]
    values = np.minimum(grid + 1, 10)
    points = np.zeros(grid.shape[1], dtype=np.int16)
    for k in range(2, n + 1):
        for subset in combinations(range(n), k):
            points += 2 * (values[list(subset)].sum(axis=0) == 15)
    for i, j in combinations(range(n), 2):
        points += 2 * (grid[i] == grid[j])
    counts = np.zeros((13, grid.shape[1]), dtype=np.int16)
    for i in range(n):
        np.add.at(counts, (grid[i], np.arange(grid.shape[1])), 1)
    # Longest stretch of consecutive present ranks and the product of their counts.
    run = np.zeros(grid.shape[1], dtype=np.int16)
    mult = np.ones(grid.shape[1], dtype=np.int16)
    best = np.zeros(grid.shape[1], dtype=np.int16)
    best_mult = np.zeros(grid.shape[1], dtype=np.int16)
    for rank in range(14):
        present = counts[rank] > 0 if rank < 13 else np.zeros(grid.shape[1], dtype=bool)
        ending = ~present & (run > best)
        best = np.where(ending, run, best)
        best_mult = np.where(ending, mult, best_mult)
        run = np.where(present, run + 1, 0)
        mult = np.where(present, mult * np.maximum(counts[min(rank, 12)], 1), 1)
    points += np.where(best >= 3, best * best_mult, 0)
    return points.astype(np.uint8)


@cache
def _key_parts(n: int) -> tuple[npt.NDArray[np.int32], ...]:
    return tuple((_RANK0 * 13 ** (n - 1 - i)).astype(np.int32) for i in range(n))


def score_batch(
    hands: npt.ArrayLike, starters: npt.ArrayLike, *, crib: bool = False
) -> npt.NDArray[np.uint8]:
    """The show score of each hand (rows of ``hands``) with its starter, as ``uint8``.

    Agrees exactly with :func:`cribbage.show.score_hand`; the inputs are not checked for
    repeated cards (see :func:`cards_array` for checked input).
    """
    h = np.asarray(hands)
    s = np.asarray(starters)
    if h.ndim != 2 or h.shape[1] not in (3, 4) or s.shape != (h.shape[0],):
        raise CardError("score_batch takes hands of shape (N, 4) or (N, 3) and starters (N,)")
    size = h.shape[1]
    parts = _key_parts(size + 1)
    key = parts[size][s]
    for i in range(size):
        key = key + parts[i][h[:, i]]
    points = rank_table(size + 1)[key]

    suits = [_SUIT[h[:, i]] for i in range(size)]
    starter_suit = _SUIT[s]
    flush = suits[0] == suits[1]
    for other in suits[2:]:
        flush &= suits[0] == other
    with_starter = flush & (starter_suit == suits[0])
    if crib:
        points = points + with_starter * np.uint8(size + 1)
    else:
        points = points + flush * np.uint8(size) + with_starter.astype(np.uint8)

    nobs = _JACK_SUIT[h[:, 0]] == starter_suit
    for i in range(1, size):
        nobs |= _JACK_SUIT[h[:, i]] == starter_suit
    return (points + nobs).astype(np.uint8)


def cards_array(rows: list[list[int]]) -> npt.NDArray[np.uint8]:
    """Card indices as a ``uint8`` array, refusing out-of-range or repeated cards in a row.

    >>> cards_array([[0, 1, 2]]).shape
    (1, 3)
    """
    arr = np.asarray(rows, dtype=np.int64)
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise CardError("card indices run from 0 to 51")
    if arr.ndim == 2 and arr.shape[1] > 1:
        ordered = np.sort(arr, axis=1)
        if (ordered[:, 1:] == ordered[:, :-1]).any():
            raise CardError("a card appears twice in one hand")
    return arr.astype(np.uint8)
