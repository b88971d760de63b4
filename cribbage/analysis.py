"""Analysis on the batch scorer: the score distribution of every hand, and discard values.

>>> dist = score_distribution(tables=("hand",))
>>> dist["hands"], dist["hand"][0], dist["hand"][29]
(12994800, 1009008, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from cribbage.batch import score_batch
from cribbage.cards import PACK, Card, require_distinct
from cribbage.errors import CardError
from cribbage.progress import Progress

__all__ = ["all_four_card_hands", "discard_values", "hands_with_starters", "score_distribution"]



def all_four_card_hands() -> npt.NDArray[np.uint8]:
    """Every 4-card hand from the pack, ``C(52, 4) = 270725`` rows of card indices."""
    return np.array(list(combinations(range(52), 4)), dtype=np.uint8)


def hands_with_starters(hands: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Each hand repeated once per card not in it, with that card as the starter."""
    n = hands.shape[0]
    free = np.ones((n, 52), dtype=bool)
    free[np.arange(n)[:, None], hands] = False
    rows, starters = np.nonzero(free)
    return hands[rows], starters.astype(np.uint8)


def score_distribution(
    *, tables: Sequence[str] = ("hand", "crib"), progress: Progress | None = None, chunks: int = 52
) -> dict[str, Any]:
    """How many (4-card hand, starter) pairs score each number of points.

    Every one of the 12,994,800 pairs is scored by :func:`cribbage.batch.score_batch`, as a
    hand and (with ``"crib"`` in ``tables``) as a crib. Returns ``{"hands": N, "hand": {points:
    count}, "crib": {...}}`` with every score from 0 to 29 listed, zeros included.
    """
    hands = all_four_card_hands()
    counts = {t: np.zeros(30, dtype=np.int64) for t in tables}
    total = 0
    splits = np.array_split(np.arange(hands.shape[0]), chunks)
    for done, rows in enumerate(splits, 1):
        h, s = hands_with_starters(hands[rows])
        for table in tables:
            counts[table] += np.bincount(score_batch(h, s, crib=table == "crib"), minlength=30)
        total += s.shape[0]
        if progress is not None:
            progress(done, len(splits))
    result: dict[str, Any] = {"hands": total}
    for table in tables:
        result[table] = {int(p): int(c) for p, c in enumerate(counts[table])}
    return result


def discard_values(dealt: Sequence[Card], *, keep: int = 4) -> list[dict[str, Any]]:
    """For each way to keep ``keep`` cards of those ``dealt``, the hand's average and best
    show score over every starter still unseen, best average first.

    >>> from cribbage.cards import parse_cards
    >>> best = discard_values(parse_cards("5H 5S JD QC 2H 9S"))[0]
    >>> best["keep"], best["discard"], round(best["average"], 2)
    (['5H', '5S', 'JD', 'QC'], ['2H', '9S'], 12.7)
    """
    require_distinct(dealt)
    if not keep < len(dealt) <= 7:
        raise CardError(f"dealt {len(dealt)} cards; need more than {keep} and at most 7")
    unseen = np.array([c.index for c in PACK if c not in dealt], dtype=np.uint8)
    options = []
    for kept in combinations(dealt, keep):
        hand = np.array([c.index for c in kept], dtype=np.uint8)
        scores = score_batch(np.tile(hand, (unseen.shape[0], 1)), unseen)
        options.append(
            {
                "keep": [c.name for c in kept],
                "discard": [c.name for c in dealt if c not in kept],
                "average": float(scores.mean()),
                "best": int(scores.max()),
                "worst": int(scores.min()),
            }
        )
    options.sort(key=lambda o: (-o["average"], -o["best"]))
    return options
