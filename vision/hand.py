"""Which card is the starter: the one lying apart from the rest of the hand.

A card is where the reader saw it: its outline when the whole card shows, and the part of it its
corner indices vouch for. A hand spread for the show shows one card whole at most, and of the others
only an index strip; the reader may also read only one of the top card's two indices. From an index
the card's body runs "down" (glyph to pip) and to the index's right, at least ``BODY`` glyph sizes
(a jumbo index's glyph is about a fifth of the card's width and a seventh of its height), so
that rectangle certainly lies on the card. Cards are then compared by the gaps between those
shapes, not by their centres: the top card of a spread has its centre half a card from the
others' indices, and the index read at its far corner further still, but its body reaches them.

>>> apart([(0, 0), (50, 0), (100, 0), (150, 0), (600, 300)])
4
>>> apart([(0, 0), (50, 0), (100, 0), (150, 0), (200, 0)]) is None
True
>>> spread = [[(0, 0)], [(40, 0)], [(80, 0)], [(120, 0), (230, 150), (175, 75)]]  # the top card whole
>>> apart(spread) is None, apart([(0, 0), (40, 0), (80, 0), (175, 75)])  # by centres alone: wrong
(True, 3)
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.results import CardRead

__all__ = ["apart", "card_shape", "gap", "starter_apart"]

BODY = (4.0, 6.0)  # glyph sizes of card that certainly lie to an index's right and below it
FACTOR = 1.5  # the card apart is at least this many times further from the rest than they are apart
LEAST_GAP = 2.0  # ...and at least this many of its rank glyph's sizes from the nearest card

Shape = npt.ArrayLike  # a point (x, y), or points (N, 2) that lie on one card


def card_shape(card: CardRead) -> npt.NDArray[np.float64]:
    """Points that certainly lie on a card as read: its centre, its outline's corners if it has
    one, and for each index read the corners of the stretch of card body the index vouches for
    (``BODY``). An outline can be too small (found round part of a card's print), so the indices
    still count.

    >>> from vision.results import CardRead, IndexSeen
    >>> top_left = IndexSeen((20, 25), (0, 1), 10)  # upright: the body runs right and down
    >>> card_shape(CardRead("5H", 0.9, (20, 25), None, [top_left])).tolist()
    [[20.0, 25.0], [20.0, 25.0], [60.0, 25.0], [60.0, 85.0], [20.0, 85.0]]
    >>> bottom_right = IndexSeen((80, 115), (0, -1), 10)  # upside down: left and up
    >>> card_shape(CardRead("5H", 0.9, (80, 115), None, [bottom_right]))[2].tolist()
    [40.0, 115.0]
    """
    points = [np.asarray(card.center, np.float64).reshape(1, 2)]
    if card.quad is not None:
        points.append(np.asarray(card.quad, np.float64).reshape(-1, 2))
    for seen in card.indices:
        at, down = np.asarray(seen.center, np.float64), np.asarray(seen.down, np.float64)
        right = np.array([down[1], -down[0]])  # the index's own right, as a reader holds it upright
        wide, long = BODY[0] * seen.size * right, BODY[1] * seen.size * down
        points.append(np.stack([at, at + wide, at + wide + long, at + long]))
    return np.concatenate(points)


def starter_apart(cards: Sequence[CardRead]) -> int | None:
    """Index in ``cards`` (a reading of a hand and its starter) of the card lying apart, or None
    when no card clearly does.

    >>> from vision.results import CardRead, IndexSeen
    >>> def card(name, x, y):  # a card of which only the upright top-left index was read
    ...     return CardRead(name, 0.9, (x, y), None, [IndexSeen((x, y), (0, 1), 12)])
    >>> hand = [card(n, 100 + 30 * k, 100) for k, n in enumerate(["2C", "3D", "4H", "9D"])]
    >>> starter_apart([*hand, card("5S", 500, 300)]), starter_apart([*hand, card("KC", 220, 100)])
    (4, None)
    """
    sizes = [seen.size for c in cards for seen in c.indices]
    least = LEAST_GAP * float(np.median(sizes)) if sizes else 0.0
    return apart([card_shape(c) for c in cards], least=least)


def apart(cards: Sequence[Shape], factor: float = FACTOR, least: float = 0.0) -> int | None:
    """Index of the one card clearly apart from the others, or None when no card clearly is.

    Each card is a point or the points seen on it (:func:`card_shape`). A card is apart when its
    gap (:func:`gap`) to the nearest other card is at least ``factor`` times the largest such gap
    among the remaining cards, and at least ``least``.
    """
    if len(cards) < 3:
        return None
    shapes = [np.asarray(c, np.float64).reshape(-1, 2) for c in cards]
    n = len(shapes)
    d = np.full((n, n), np.inf)
    for i in range(n):
        for j in range(i + 1, n):
            d[i, j] = d[j, i] = gap(shapes[i], shapes[j])
    nearest = d.min(axis=1)
    k = int(nearest.argmax())
    rest = np.delete(nearest, k)
    # the others' nearest neighbours, among themselves (the far card does not count)
    others = np.delete(np.delete(d, k, axis=0), k, axis=1).min(axis=1)
    spread = max(float(rest.max()), float(others.max()))
    return k if nearest[k] > 0 and nearest[k] >= max(factor * spread, least) else None


def gap(a: Shape, b: Shape) -> float:
    """The distance between the convex hulls of two sets of points; 0 where they overlap.

    >>> square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    >>> gap(square, [(13, 14)]), gap(square, [(5, 5)]), gap([(0, 20), (20, 0)], square)
    (5.0, 0.0, 0.0)
    >>> gap([(-5, 5), (15, 5)], [(5, -5), (5, 15)])  # two crossing strokes
    0.0
    """
    ha, hb = _hull(a), _hull(b)
    if _holds(ha, hb) or _holds(hb, ha):
        return 0.0
    ea, eb = _edges(ha), _edges(hb)
    if any(_cross(s, t) for s in ea for t in eb):
        return 0.0
    return float(min(_to_segments(ha, eb).min(), _to_segments(hb, ea).min()))


def _hull(points: Shape) -> npt.NDArray[np.float64]:
    """The convex hull's corners; points all on one line give that line's two ends.

    >>> _hull([(5, 0), (5, 30), (5, 10)]).tolist()  # upright: the ends by y, not x
    [[5.0, 0.0], [5.0, 30.0]]
    """
    p = np.asarray(points, np.float64).reshape(-1, 2)
    if len(p) < 3:
        return p
    h = cv2.convexHull(p.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    if cv2.contourArea(h.astype(np.float32)) > 0:
        return h
    along = (p - p[0]) @ (p[np.argmax(np.hypot(*(p - p[0]).T))] - p[0])  # along the line
    return p[[along.argmin(), along.argmax()]]


def _edges(h: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """(N, 2, 2) segments round a hull (a point is one segment of no length; two points, one)."""
    if len(h) <= 2:
        return np.stack([h[0], h[-1]])[None]
    return np.stack([h, np.roll(h, -1, axis=0)], axis=1)


def _holds(h: npt.NDArray[np.float64], other: npt.NDArray[np.float64]) -> bool:
    """Whether polygon ``h`` (three or more corners) holds any point of ``other``."""
    if len(h) < 3:
        return False
    poly = h.reshape(-1, 1, 2).astype(np.float32)
    return any(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in other)


def _cross(s: npt.NDArray[np.float64], t: npt.NDArray[np.float64]) -> bool:
    """Whether two segments cross (properly: touching ends are left to the distances)."""
    def side(p: npt.NDArray[np.float64], q: npt.NDArray[np.float64], r: npt.NDArray[np.float64]) -> float:
        return float((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))

    return (side(s[0], s[1], t[0]) * side(s[0], s[1], t[1]) < 0
            and side(t[0], t[1], s[0]) * side(t[0], t[1], s[1]) < 0)


def _to_segments(points: npt.NDArray[np.float64], segs: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """(P, S) distances from each point to each segment."""
    a, b = segs[None, :, 0], segs[None, :, 1]
    p = points[:, None]
    ab = b - a
    length2 = np.maximum((ab**2).sum(axis=-1), 1e-12)
    t = np.clip(((p - a) * ab).sum(axis=-1) / length2, 0, 1)
    return np.hypot(*(p - (a + t[..., None] * ab)).transpose(2, 0, 1))
