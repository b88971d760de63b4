"""Rank tables for the coach: show points by rank multiset, and the crib's outcome classes.

Fifteens, pairs and runs depend on the ranks alone and not on their order, so one table of
the 6188 five-card rank multisets (1820 for four cards) holds every rank score a show can
have. :func:`points_by_key` spreads it over the base-13 key of the *sorted* ranks, so a
lookup is one gather. Each table is built with NumPy on first use (a few milliseconds).

>>> int(points_by_key(5)[sorted_key([4, 4, 4, 10, 4])])  # 5 5 5 J 5
28
>>> crib_classes(2).size, crib_classes(3).size  # (starter rank, other unseen ranks) pairs
(1183, 5915)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

from cribbage.batch import rank_points

__all__ = ["CribClasses", "crib_classes", "crib_rank_table", "multisets", "points_by_key", "sorted_key"]

JACK = 10
"""The jack's rank index (ranks run 0 for the ace to 12 for the king)."""


@cache
def multisets(n: int) -> npt.NDArray[np.int16]:
    """Every multiset of ``n`` ranks (0–12) as sorted rows: ``C(12 + n, n)`` of them.

    >>> multisets(5).shape, multisets(4).shape
    ((6188, 5), (1820, 4))
    """
    return np.array(list(combinations_with_replacement(range(13), n)), dtype=np.int16).reshape(-1, n)


def sorted_key(ranks: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The base-13 key of each row of ``ranks`` (last axis) after sorting it."""
    r = np.sort(np.asarray(ranks, dtype=np.int64), axis=-1)
    key = np.zeros(r.shape[:-1], dtype=np.int64)
    for i in range(r.shape[-1]):
        key = key * 13 + r[..., i]
    return key


@cache
def points_by_key(n: int) -> npt.NDArray[np.uint8]:
    """Rank points (fifteens, pairs, runs) of ``n`` cards, indexed by :func:`sorted_key`.

    Only the keys of sorted rows are filled: the multiset table spread over ``13**n`` entries.
    """
    rows = multisets(n)
    table = np.zeros(13**n, dtype=np.uint8)
    table[sorted_key(rows)] = rank_points(rows.T)
    return table


@dataclass(frozen=True, slots=True)
class CribClasses:
    """The crib's unknown cards grouped by rank: the starter's rank and the other ranks.

    The crib is the discards plus ``u`` unseen cards (2 when two cards are laid away, 3 when
    one is) and the starter. A class is the starter's rank ``rs`` with the sorted ranks ``q``
    (shape ``(C, u)``) of the other unseen crib cards. Given the unseen count ``k[r]`` of each
    rank, the ways to pick the other cards once a starter of rank ``rs`` is turned are
    ``prod(k[q_i] - off_i) / sym``: ``off_i`` counts the earlier equal ranks (the starter's
    included) and ``sym`` is the product of the factorials of the multiplicities in ``q``.
    """

    rs: npt.NDArray[np.int64]
    q: npt.NDArray[np.int64]
    off: npt.NDArray[np.int64]
    sym: npt.NDArray[np.int64]
    jacks: npt.NDArray[np.int64]
    """Jacks among ``q``."""
    distinct: npt.NDArray[np.bool_]
    """Whether the starter's rank and ``q`` are all different (a five-card flush can happen)."""

    @property
    def size(self) -> int:
        """The number of classes."""
        return int(self.rs.shape[0])


@cache
def crib_classes(u: int) -> CribClasses:
    """The outcome classes for ``u`` unknown crib cards besides the starter."""
    rows = multisets(u).astype(np.int64)
    rs = np.repeat(np.arange(13, dtype=np.int64), rows.shape[0])
    q = np.tile(rows, (13, 1))
    off = np.zeros_like(q)
    for i in range(u):
        off[:, i] = (q[:, i] == rs) + sum((q[:, i] == q[:, j]).astype(np.int64) for j in range(i))
    sym = np.ones(q.shape[0], dtype=np.int64)
    for r in range(13):
        sym *= np.array([factorial(int(m)) for m in range(u + 1)])[(q == r).sum(axis=1)]
    every = np.concatenate([rs[:, None], q], axis=1)
    distinct = np.array([len(set(row)) == u + 1 for row in every.tolist()])
    return CribClasses(rs, q, off, sym, (q == JACK).sum(axis=1), distinct)


@cache
def crib_rank_table(d: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Rank points of every crib: ``d`` discards (rows of :func:`multisets`) by class.

    Returns ``(keys, table)``: ``keys`` the :func:`sorted_key` of each discard multiset in
    the table's row order, ``table[row, class]`` the rank points of the five cards, capped at
    33 (only five cards of one rank, which no pack holds, score more).
    """
    discards = multisets(d).astype(np.int64)
    classes = crib_classes(4 - d)
    every = np.concatenate(
        [
            np.repeat(discards, classes.size, axis=0),
            np.tile(np.concatenate([classes.rs[:, None], classes.q], axis=1), (discards.shape[0], 1)),
        ],
        axis=1,
    )
    table = points_by_key(5)[sorted_key(every)].reshape(discards.shape[0], classes.size)
    return sorted_key(discards), np.ascontiguousarray(np.minimum(table, 33).astype(np.int64))
