"""De-duplication: a candidate found twice (at two levels, two looks) is kept once, and a busy
photo keeps its least crowded candidates.

>>> import numpy as np
>>> i, j = close_pairs(np.array([0.0]), np.array([0.5, 9.0]), np.array([1.0]))
>>> i.tolist(), j.tolist()
([0], [0])
"""

from __future__ import annotations

import numpy as np

from vision import tuning
from vision.index.types import Candidate


def fresh(found: list[Candidate], old: list[Candidate]) -> list[Candidate]:
    """The candidates of ``found`` not already in ``old`` (glyph and pip within 0.2 glyph sizes).

    >>> from vision.index.types import BlobId
    >>> a = Candidate((10, 15), (0, 1), 10, (10, 10), (10, 20), (BlobId(0, 1),))
    >>> b = Candidate((11, 16), (0, 1), 10, (11, 11), (11, 21), (BlobId(0, 2),))  # a again, a pixel off
    >>> c = Candidate((40, 15), (0, 1), 10, (40, 10), (40, 20), (BlobId(0, 3),))
    >>> [x.labels for x in fresh([b, c], [a])]
    [(BlobId(look=0, blob=3, scale=1),)]
    """
    if not old or not found:
        return found
    a = np.array([[*c.rank_pos, *c.suit_pos, c.size] for c in found], np.float32)
    b = np.array([[*c.rank_pos, *c.suit_pos, c.size] for c in old], np.float32)
    # only pairs whose glyphs are that close across can be the same (a frame offers hundreds of each)
    i, j = close_pairs(a[:, 0], b[:, 0], 0.2 * np.maximum(a[:, 4], b[:, 4].max()))
    gap = np.abs(a[i, :4] - b[j, :4]).max(axis=1)
    same = gap < 0.2 * np.maximum(a[i, 4], b[j, 4])
    dup = np.zeros(len(found), bool)
    dup[i[same]] = True
    return [c for c, d in zip(found, dup, strict=True) if not d]


def least_crowded(found: list[Candidate]) -> list[Candidate]:
    """At most ``tuning.MAX_CANDIDATES``, the least crowded (then biggest) first."""
    if len(found) <= tuning.MAX_CANDIDATES:
        return found
    return sorted(found, key=lambda c: (c.crowd, -c.size))[:tuning.MAX_CANDIDATES]


def close_pairs(a: np.ndarray, b: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j) with ``|a[i] - b[j]| <= reach[i]`` (and a little more: it is a sieve, the caller
    tests what it needs on these alone), in order of i, then j; found through ``b`` sorted, not by
    comparing every pair.

    >>> import numpy as np
    >>> i, j = close_pairs(np.array([0.0, 10.0]), np.array([9.0, 1.0, 30.0, 0.5]), np.array([1.0, 2.0]))
    >>> i.tolist(), j.tolist()
    ([0, 0, 1], [1, 3, 0])
    """
    order = np.argsort(b, kind="stable")
    bs = b[order].astype(np.float64)
    slack = np.asarray(reach, np.float64) * (1 + 1e-6) + 1e-4
    lo = np.searchsorted(bs, a - slack, side="left")
    hi = np.searchsorted(bs, a + slack, side="right")
    count = hi - lo
    total = int(count.sum())
    i = np.repeat(np.arange(len(a)), count)
    start = np.repeat(lo - (np.cumsum(count) - count), count)
    j = order[start + np.arange(total)]
    k = np.lexsort((j, i))
    return i[k], j[k]
