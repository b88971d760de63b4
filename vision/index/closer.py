"""Where to look closer: a photo read shrunk (over ``tuning.MAX_SIDE``) can hold cards whose index is
too small at that size to read; the outlines of such cards pick the places, and the scale, at which
the photo is read again from its own pixels.

A card outline ``short`` px across (its short side, in the shrunk photo) is small when under
``tuning.CLOSE_CARD``; the place round it is read at the scale that brings it to that width, never
above the photo's own resolution. Places that overlap are read as one, at the larger scale, and all
of them together are held to ``tuning.CLOSE_BUDGET`` of the shrunk photo's pixels (the smallest
cards first).

>>> import numpy as np
>>> card = np.float32([[100, 100], [150, 100], [150, 170], [100, 170]])  # 50 px across, shrunk 4 times
>>> [(r.box, round(r.scale, 2)) for r in closer_regions([card], 0.25, (4000, 6000))]
[((288, 288, 712, 792), 0.75)]
>>> closer_regions([card], 1.0, (1000, 1500))  # a photo read at its own size has nothing closer
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision import tuning


@dataclass(frozen=True)
class Region:
    """A place to read again: ``box`` (x0, y0, x1, y1) in the photo's own pixels, read at ``scale``
    (of the photo's own size, at most 1)."""

    box: tuple[int, int, int, int]
    scale: float


def closer_regions(quads: Sequence[np.ndarray], scale: float, shape: tuple[int, int],
                   tiles: Sequence[tuple[int, int, int, int]] = ()) -> list[Region]:
    """The places round the small card outlines ``quads`` (in pixels of the photo shrunk by ``scale``;
    ``shape``: the photo's own height and width) worth reading closer, each with its scale, the
    smallest cards first, within the pixel budget; then the ``tiles`` (x0, y0, x1, y1, shrunk
    pixels) where tiny glyph-like blobs lie and no outline was found (a card on a grained table, in
    a row): read at ``tuning.CLOSE_TILE`` times the working size.

    >>> [(r.box, r.scale) for r in closer_regions([], 0.25, (4000, 6000), [(100, 100, 164, 164)])]
    [((338, 338, 718, 718), 0.5)]
    """
    if scale >= 1.0:
        return []
    h, w = shape
    wanted: list[tuple[float, list[float], float]] = []  # (short side, box in own px, scale)
    f = min(1.0, tuning.CLOSE_TILE * scale)
    if f > scale * tuning.CLOSE_GAIN:
        for x0, y0, x1, y1 in tiles:
            m = tuning.LOCAL / f
            wanted.append((tuning.CLOSE_CARD, [max(0.0, x0 / scale - m), max(0.0, y0 / scale - m),
                                               min(w, x1 / scale + m), min(h, y1 / scale + m)], f))
    for q in quads:
        sides = np.hypot(*(q - np.roll(q, -1, axis=0)).T)
        short = float(min((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
        if short >= tuning.CLOSE_CARD:
            continue
        own = short / scale  # the card's width in the photo's own pixels
        f = min(1.0, tuning.CLOSE_CARD / own)
        if f <= scale * tuning.CLOSE_GAIN:  # the photo as read is as close as it gets
            continue
        x0, y0 = q.min(axis=0) / scale
        x1, y1 = q.max(axis=0) / scale
        m = tuning.CLOSE_MARGIN * max(x1 - x0, y1 - y0) + tuning.LOCAL / f  # the paper round it
        wanted.append((short, [max(0.0, x0 - m), max(0.0, y0 - m), min(w, x1 + m), min(h, y1 + m)], f))
    wanted.sort(key=lambda t: t[0])  # (stable: the tiles after the outlines)
    merged: list[tuple[list[float], float]] = []
    for _short, box, f in wanted:
        for k, (other, g) in enumerate(merged):
            if box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]:
                merged[k] = ([min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]),
                              max(box[3], other[3])], max(f, g))
                break
        else:
            merged.append((box, f))
    budget = tuning.CLOSE_BUDGET * (h * scale) * (w * scale)
    out = []
    for box, f in merged:
        cost = (box[2] - box[0]) * (box[3] - box[1]) * f * f
        if cost > budget:
            continue
        budget -= cost
        out.append(Region((int(box[0]), int(box[1]), int(np.ceil(box[2])), int(np.ceil(box[3]))), f))
    return out
