"""Which card is the starter: the one lying apart from the rest of the hand.

>>> apart([(0, 0), (50, 0), (100, 0), (150, 0), (600, 300)])
4
>>> apart([(0, 0), (50, 0), (100, 0), (150, 0), (200, 0)]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def apart(centers: Sequence[tuple[float, float]], factor: float = 1.5) -> int | None:
    """Index of the one card clearly apart from the others, or None when no card clearly is.

    A card is apart when its distance to the nearest other card is at least ``factor`` times
    the largest such distance among the remaining cards.
    """
    if len(centers) < 3:
        return None
    p = np.asarray(centers, np.float64)
    d = np.hypot(p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1])
    np.fill_diagonal(d, np.inf)
    nearest = d.min(axis=1)
    k = int(nearest.argmax())
    rest = np.delete(nearest, k)
    # the others' nearest neighbours, among themselves (the far card does not count)
    others = np.delete(np.delete(d, k, axis=0), k, axis=1).min(axis=1)
    spread = max(float(rest.max()), float(others.max()))
    return k if nearest[k] >= factor * max(spread, 1e-9) else None
