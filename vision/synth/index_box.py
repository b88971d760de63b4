"""Measure where a card face prints its corner index (rank glyph + suit pip).

Every deck puts its index somewhere slightly different, so the renderer measures it from the
artwork: the ink in the top-left corner region is split into connected components; the rank is
the glyph-sized component nearest the corner (plus its neighbours on the same line, for "10"),
the suit pip the next component below it (or beside it, for decks that print them side by side).
The bottom-right index is measured the same way on the face turned half a turn.

>>> import cv2
>>> face = np.zeros((140, 100, 4), np.uint8); face[...] = (255, 255, 255, 255)
>>> _ = cv2.putText(face, "7", (6, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0, 255), 2)
>>> _ = cv2.circle(face, (14, 34), 5, (0, 0, 0, 255), -1)
>>> box = measure_corner_index(face)
>>> [round(v, 2) for v in box]
[0.09, 0.06, 0.2, 0.29]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) as fractions of the face width and height."""


@dataclass(frozen=True)
class _Comp:
    x0: int
    y0: int
    x1: int  # exclusive
    y1: int
    area: int

    @property
    def h(self) -> int:
        return self.y1 - self.y0

    @property
    def w(self) -> int:
        return self.x1 - self.x0

    def union(self, other: _Comp) -> _Comp:
        return _Comp(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
            self.area + other.area,
        )


def ink_mask(face: npt.NDArray[np.uint8], region: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """Pixels in the top-left ``region`` (w, h) that differ clearly from the card's paper colour.

    The card's outline (a thin stroke along the alpha edge) is removed by eroding the alpha mask.
    """
    rw, rh = region
    sub = face[:rh, :rw]
    alpha = sub[..., 3] > 128
    paper_px = sub[..., :3][alpha]
    if paper_px.size == 0:
        return np.zeros((rh, rw), np.uint8)
    paper = np.median(paper_px.reshape(-1, 3), axis=0)
    diff = np.abs(sub[..., :3].astype(np.int16) - paper.astype(np.int16)).sum(axis=2)
    ink = (diff > 90) & alpha
    k = max(3, round(face.shape[1] * 0.022))
    inner = cv2.erode(alpha.astype(np.uint8), np.ones((k, k), np.uint8), borderValue=0)
    return (ink & (inner > 0)).astype(np.uint8)


def _components(mask: npt.NDArray[np.uint8], fw: int, fh: int) -> list[_Comp]:
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    min_area = max(4, int(fw * fh * 0.00004))
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < min_area:
            continue
        if w > 0.22 * fw or h > 0.17 * fh:  # frames, borders, pictures: not index glyphs
            continue
        out.append(_Comp(x, y, x + w, y + h, area))
    return out


def measure_corner_index(face: npt.NDArray[np.uint8]) -> Box | None:
    """Box of the top-left corner index of a BGRA ``face``, or None when there is none."""
    fh, fw = face.shape[:2]
    region = (int(fw * 0.5), int(fh * 0.38))
    comps = _components(ink_mask(face, region), fw, fh)
    if not comps:
        return None
    glyph_min = 0.035 * fh
    ranked = sorted((c for c in comps if c.h >= glyph_min), key=lambda c: c.x0 + c.y0)
    for rank0 in ranked[:2]:
        box = _grow_index(rank0, comps, fw, fh)
        if box is not None:
            return box
    return None


def _grow_index(rank0: _Comp, comps: list[_Comp], fw: int, fh: int) -> Box | None:
    if rank0.x0 > 0.2 * fw or rank0.y0 > 0.16 * fh:
        return None
    # the rank: components on the same line (the "1" and "0" of a ten, a broken glyph)
    rank = rank0
    changed = True
    while changed:
        changed = False
        for c in comps:
            if c == rank0 or (rank.x0 <= c.x0 and c.x1 <= rank.x1 and rank.y0 <= c.y0 and c.y1 <= rank.y1):
                continue
            v_overlap = min(rank.y1, c.y1) - max(rank.y0, c.y0)
            gap = max(c.x0 - rank.x1, rank.x0 - c.x1)
            if v_overlap >= 0.6 * min(rank.h, c.h) and gap <= 0.35 * rank.h and c.h >= 0.5 * rank.h:
                rank = rank.union(c)
                changed = True
    if rank.w > 0.2 * fw or rank.h > 0.14 * fh:
        return None
    # the suit pip: below the rank, or to its right
    below = [
        c
        for c in comps
        if c.y0 >= rank.y1 - 0.1 * rank.h
        and c.y0 <= rank.y1 + 0.9 * rank.h
        and min(rank.x1, c.x1) - max(rank.x0, c.x0) >= 0.3 * min(rank.w, c.w)
        and 0.25 * rank.h <= c.h <= 1.3 * rank.h
    ]
    beside = [
        c
        for c in comps
        if c.x0 >= rank.x1 - 0.1 * rank.w
        and c.x0 <= rank.x1 + 0.6 * rank.h
        and min(rank.y1, c.y1) - max(rank.y0, c.y0) >= 0.3 * min(rank.h, c.h)
        and 0.4 * rank.h <= c.h <= 1.3 * rank.h
    ]
    if below:
        pip = min(below, key=lambda c: c.y0)
    elif beside:
        pip = min(beside, key=lambda c: c.x0)
    else:
        return None
    # a pip may be drawn in several pieces (a club's stem): absorb pieces inside its neighbourhood
    for c in comps:
        if c in (pip, rank0):
            continue
        if (
            c.x0 >= pip.x0 - 0.2 * pip.w
            and c.x1 <= pip.x1 + 0.2 * pip.w
            and c.y0 >= pip.y0 - 0.2 * pip.h
            and c.y1 <= pip.y1 + 0.3 * pip.h
        ):
            pip = pip.union(c)
    idx = rank.union(pip)
    return (idx.x0 / fw, idx.y0 / fh, idx.x1 / fw, idx.y1 / fh)


def measure_indices(face: npt.NDArray[np.uint8]) -> list[Box]:
    """Top-left and bottom-right index boxes of ``face`` (those found), in face fractions."""
    out: list[Box] = []
    tl = measure_corner_index(face)
    if tl is not None:
        out.append(tl)
    turned = measure_corner_index(np.ascontiguousarray(face[::-1, ::-1]))
    if turned is not None:
        x0, y0, x1, y1 = turned
        out.append((1.0 - x1, 1.0 - y1, 1.0 - x0, 1.0 - y0))
    return out
