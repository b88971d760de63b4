"""Card outlines: four-sided bright shapes found from edges, used to give whole cards a quad.

>>> import numpy as np, cv2
>>> img = np.full((300, 300, 3), 90, np.uint8)
>>> _ = cv2.rectangle(img, (100, 60), (200, 205), (245, 245, 245), -1)
>>> q = find_quads(img)
>>> len(q), [round(float(v), -1) for v in q[0].min(axis=0)]
(1, [100.0, 60.0])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import cv2
import numpy as np


class Seen(Protocol):
    """An index as seen: its centre and its "down" (unit vector from rank glyph to suit pip)."""

    center: tuple[float, float]
    down: tuple[float, float]


def find_quads(bgr: np.ndarray, min_side: int = 40) -> list[np.ndarray]:
    """Convex four-sided outlines of card shape (long/short side 1.2-1.75), as float32 (4, 2) arrays."""
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    edges = cv2.Canny(gray, 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out: list[np.ndarray] = []
    for cnt in contours:
        if cv2.contourArea(cnt) < min_side * min_side:
            continue
        hull = cv2.convexHull(cnt)
        peri = cv2.arcLength(hull, True)
        approx = cv2.approxPolyDP(hull, 0.03 * peri, True)
        if len(approx) != 4:
            continue
        q = approx.reshape(4, 2).astype(np.float32)
        sides = np.hypot(*(q - np.roll(q, -1, axis=0)).T)
        a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        long_, short = max(a, b), min(a, b)
        if short < min_side or not (1.2 < long_ / short < 1.75):
            continue
        if cv2.contourArea(q) < 0.85 * cv2.contourArea(hull):
            continue
        out.append(q)
    # the same outline is found from both sides of the dilated edge: keep the outer one
    areas = [cv2.contourArea(q) for q in out]
    order = sorted(range(len(out)), key=lambda k: -areas[k])
    kept: list[np.ndarray] = []
    centres = np.zeros((len(out), 2))
    reach = np.zeros(len(out))  # a kept outline's centre and 0.2 of its side
    for k in order:
        c = out[k].mean(axis=0)
        n = len(kept)
        if n and (np.hypot(*(centres[:n] - c).T) < reach[:n]).any():
            continue
        centres[n], reach[n] = c, 0.2 * np.sqrt(areas[k])
        kept.append(out[k])
    return kept


def inside(q: np.ndarray, p: tuple[float, float]) -> bool:
    """Whether point ``p`` lies in (or on) the outline ``q`` ((4, 2) or any polygon).

    >>> inside(np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]), (5, 5))
    True
    """
    poly = q.reshape(-1, 1, 2).astype(np.float32)
    return cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) >= 0


def inside_all(outlines: Sequence[np.ndarray], points: Sequence[tuple[float, float]]) -> np.ndarray:
    """(len(outlines), len(points)) bools: which points lie in (or on) which convex outlines, all
    at once (what :func:`inside` says of each pair; the outlines :func:`find_quads` gives are convex).

    >>> square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> inside_all([square, square + 8], [(5, 5), (15, 15), (10, 4)]).tolist()
    [[True, False, True], [False, True, False]]
    """
    if not len(outlines) or not len(points):
        return np.zeros((len(outlines), len(points)), bool)
    p = np.asarray(points, np.float64).reshape(1, 1, -1, 2)
    out = np.zeros((len(outlines), p.shape[2]), bool)
    for size in {len(q) for q in outlines}:  # the outlines with as many corners as each other at once
        which = [k for k, q in enumerate(outlines) if len(q) == size]
        a = np.stack([np.asarray(outlines[k], np.float64).reshape(-1, 2) for k in which])[:, :, None, :]
        b = np.roll(a, -1, axis=1)
        edge, to = b - a, p - a
        cross = edge[..., 0] * to[..., 1] - edge[..., 1] * to[..., 0]
        out[which] = (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)
    return out


def order_quad(q: np.ndarray) -> np.ndarray:
    """Corners clockwise starting top-left (image coordinates).

    >>> order_quad(np.float32([[10, 10], [0, 10], [0, 0], [10, 0]])).tolist()
    [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    """
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]
    start = int(np.argmin(q.sum(axis=1)))
    return np.roll(q, -start, axis=0)


def opposite(a: Seen, b: Seen) -> bool:
    """Whether two indices point opposite ways, as a card's two corner indices do (turned 180°)."""
    return bool(a.down[0] * b.down[0] + a.down[1] * b.down[1] < -0.5)


# across / along the card between its two corner indices' centres (a poker card: about 0.75, a
# bridge card 0.6; a deck with its indices set far in, wider)
SPAN = (0.4, 1.2)
# how far the card reaches past its index centres, in glyph sizes: along it (the glyph above the
# centre, the pip below) and across it (the index's own width): the index is held whole, and a
# small-index deck's card reaches further still
PAST_INDEX = (1.3, 0.8)


def spanned(a: Seen, b: Seen, size: float) -> np.ndarray | None:
    """The part of a card its two corner indices ``a`` and ``b`` span, when they lie as a card's
    do (pointing opposite ways, the other index further down the card and across it in a card's
    proportions, ``SPAN``), grown past them by ``PAST_INDEX`` glyph sizes (``size``): (4, 2) corners
    in order, or None.

    >>> class I:
    ...     def __init__(self, x, y, down): self.center, self.down = (x, y), down
    >>> spanned(I(12, 20, (0, 1)), I(88, 120, (0, -1)), 8).round().tolist()
    [[6.0, 10.0], [94.0, 10.0], [94.0, 130.0], [6.0, 130.0]]
    >>> spanned(I(12, 20, (0, 1)), I(88, 20, (0, -1)), 8) is None  # side by side: two cards
    True
    """
    if not opposite(a, b):
        return None
    d = np.asarray(a.down, np.float64)
    d = d / max(float(np.linalg.norm(d)), 1e-9)
    ab = np.asarray(b.center, np.float64) - np.asarray(a.center, np.float64)
    along = float(ab @ d)
    side = ab - along * d
    across = float(np.linalg.norm(side))
    if along <= 0 or not SPAN[0] <= across / along <= SPAN[1]:
        return None
    e = side / across
    (u0, u1), (v0, v1) = ((-PAST_INDEX[0] * size, along + PAST_INDEX[0] * size),
                          (-PAST_INDEX[1] * size, across + PAST_INDEX[1] * size))
    q = np.array([np.asarray(a.center) + u * d + v * e for u, v in ((u0, v0), (u0, v1), (u1, v1), (u1, v0))])
    return order_quad(q)


def by_opposite_corners(q: np.ndarray, a: Seen, b: Seen, reach: float) -> bool:
    """Whether two indices are one card's in outline ``q`` ((4, 2), corners in order): pointing
    opposite ways (a card's print is turned 180° at its other corner), each within ``reach`` of a
    corner of its own, the two corners opposite.

    >>> card = np.float64([[0, 0], [100, 0], [100, 140], [0, 140]])
    >>> class I:
    ...     def __init__(self, x, y, down): self.center, self.down = (x, y), down
    >>> by_opposite_corners(card, I(12, 20, (0, 1)), I(88, 120, (0, -1)), 30)
    True
    >>> by_opposite_corners(card, I(12, 20, (0, 1)), I(88, 20, (0, -1)), 30)  # corners side by side
    False
    """
    ca, cb = (int(np.argmin(np.linalg.norm(q - np.asarray(s.center, np.float64), axis=1))) for s in (a, b))
    far = max(np.linalg.norm(q[ca] - np.asarray(a.center)), np.linalg.norm(q[cb] - np.asarray(b.center)))
    return bool(opposite(a, b) and (ca - cb) % 4 == 2 and far <= reach)
