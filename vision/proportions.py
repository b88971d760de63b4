"""A photo of one card stored out of its proportions, and the card put back in them.

Some collections of card images keep each card cropped tight to its edges and then resized to a
square (224 x 224, say). A card is 1.4 times taller than wide (88 x 63 mm), so in such a square
every index is squeezed to 0.7 of its height, and looks 1.4 times wider than printed. The network
reads indices at their printed proportions, and some typefaces then read wrong (a spade's pip
squeezed flat looks like a club's). Such a photo is read again stretched back to a card's shape:
when the stretched photo is then one card, its two indices by opposite corners, that reading is
the photo's (its coordinates scaled back to the photo's own pixels). A photo holding a big outline
in a card's own proportions round the card's indices (a card lying on white paper) is not.

Only a near-square photo that is largely paper, lying square in it, is tried (a square photo of a
table mostly shows the table; a card lying askew is no crop of it), so other photos cost nothing
more.

>>> import numpy as np
>>> stretches(np.full((224, 224, 3), 235, np.uint8))  # all paper: a card upright or across
[(1.0, 1.4), (1.4, 1.0)]
>>> table = np.full((224, 224, 3), 90, np.uint8)
>>> table[80:140, 100:140] = 235  # a square photo of a card on a dark table: mostly table
>>> stretches(table)
[]
>>> stretches(np.full((300, 210, 3), 235, np.uint8))  # already a card's shape
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision import tuning
from vision.quads import by_opposite_corners, find_quads, inside
from vision.results import IndexSeen, Reading


def paper(img: np.ndarray) -> np.ndarray:
    """Where the photo (looked at ``tuning.LOOK_SIDE`` square, whatever its size) is paper: grey or
    white, and light against the photo's bright end. A (LOOK_SIDE, LOOK_SIDE) uint8 mask, 1 for paper."""
    if min(img.shape[:2]) > 4 * tuning.LOOK_SIDE:  # a big photo: sampled down to 4 times the look first
        img = cv2.resize(img, (4 * tuning.LOOK_SIDE, 4 * tuning.LOOK_SIDE), interpolation=cv2.INTER_LINEAR)
    small = cv2.resize(img, (tuning.LOOK_SIDE, tuning.LOOK_SIDE), interpolation=cv2.INTER_AREA)
    light, dark = small.max(axis=2).astype(np.int16), small.min(axis=2).astype(np.int16)
    bright = float(np.percentile(light, 99))
    grey = light - dark < tuning.PAPER_SATURATION
    return ((light >= tuning.PAPER_LIGHT * bright) & grey).astype(np.uint8)


def paper_share(img: np.ndarray) -> float:
    """The share of the photo that is paper.

    >>> img = np.full((100, 100, 3), 240, np.uint8)
    >>> paper_share(img)
    1.0
    >>> img[:, :50] = (40, 120, 40)  # half of it green felt
    >>> paper_share(img)
    0.5
    """
    return float(paper(img).mean())


def squareness(img: np.ndarray) -> float:
    """How square the photo's largest stretch of paper lies in it: its convex hull's share of its
    bounding box (1 for a card upright, less for a card askew).

    >>> img = np.full((200, 200, 3), 60, np.uint8)
    >>> _ = cv2.rectangle(img, (40, 30), (150, 180), (235, 235, 235), -1)
    >>> round(squareness(img), 2)
    0.97
    >>> turned = cv2.warpAffine(img, cv2.getRotationMatrix2D((100, 100), 20, 1), (200, 200))
    >>> round(squareness(turned), 2)
    0.61
    """
    return _squareness(paper(img))


def _squareness(mask: np.ndarray) -> float:
    """:func:`squareness` of a :func:`paper` mask."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if n < 2:
        return 0.0
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    points = np.argwhere(labels == k)[:, ::-1].astype(np.float32)
    _x, _y, w, h = cv2.boundingRect(points)
    return float(cv2.contourArea(cv2.convexHull(points)) / (w * h))


def stretches(img: np.ndarray) -> list[tuple[float, float]]:
    """The (fx, fy) scalings that would give a near-square photo, largely paper lying square in
    it, a card's shape: stretched down (a card upright), then across (a card lying across); none
    for other photos."""
    h, w = img.shape[:2]
    if max(h, w) > tuning.NEAR_SQUARE * min(h, w):
        return []
    mask = paper(img)
    if mask.mean() < tuning.PAPER_SHARE or _squareness(mask) < tuning.SQUARE:
        return []
    return [(1.0, round(tuning.CARD_ASPECT * w / h, 3)), (round(tuning.CARD_ASPECT * h / w, 3), 1.0)]


def fills_photo(indices: Sequence[IndexSeen], width: int, height: int) -> bool:
    """Whether a card read (its :class:`vision.results.IndexSeen` list) is the whole photo: two of
    its indices pointing opposite ways along the photo's long side (rank above pip, as a card's
    index is printed), each by its own corner of the photo (within
    ``tuning.BY_CORNER`` glyph sizes), the two corners opposite.

    >>> from vision.results import IndexSeen
    >>> top, bottom = IndexSeen((20, 40), (0, 1), 28), IndexSeen((204, 274), (0, -1), 28)
    >>> fills_photo([top, bottom], 224, 314)
    True
    >>> fills_photo([top, bottom], 400, 500)  # a card in the photo's corner, not the photo
    False
    >>> left, right = IndexSeen((30, 40), (1, 0), 28), IndexSeen((194, 274), (-1, 0), 28)
    >>> fills_photo([left, right], 224, 314)  # a card across, stretched the wrong way
    False
    """
    rect = np.float64([[0, 0], [width, 0], [width, height], [0, height]])
    long = 0 if width > height else 1
    along = [i for i in indices if abs(i.down[long]) >= tuning.ALONG]
    return any(by_opposite_corners(rect, a, b, tuning.BY_CORNER * min(a.size, b.size))
               for k, a in enumerate(along) for b in along[k + 1:])


def unstretched(reading: Reading, width: int, height: int) -> Reading:
    """``reading`` of a photo stretched from ``width`` x ``height``, in the photo's own pixels.

    >>> from cribbage.cards import Card
    >>> from vision.results import CardRead, Reading
    >>> r = Reading([CardRead(Card("5S"), 0.99, (112, 157), [[0, 0], [224, 0], [224, 314], [0, 314]])],
    ...             width=224, height=314)
    >>> back = unstretched(r, 224, 224)
    >>> back.cards[0].center, back.cards[0].quad[2], (back.width, back.height)
    ((112.0, 112.0), [224.0, 224.0], (224, 224))
    """
    fx, fy = reading.width / width, reading.height / height

    def point(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0] / fx, 1), round(p[1] / fy, 1))

    def down(d: tuple[float, float]) -> tuple[float, float]:
        x, y = d[0] / fx, d[1] / fy
        n = float(np.hypot(x, y)) or 1.0
        return (x / n, y / n)

    cards = [replace(c, center=point(c.center),
                     quad=None if c.quad is None else [list(point(p)) for p in c.quad],
                     indices=[replace(i, center=point(i.center), down=down(i.down),
                                         size=i.size / float(np.sqrt(fx * fy))) for i in c.indices])
             for c in reading.cards]
    unreadable = [replace(u, center=point(u.center)) for u in reading.unreadable]
    return replace(reading, cards=cards, unreadable=unreadable, width=width, height=height)


def in_own_outline(img: np.ndarray, indices: Sequence[IndexSeen]) -> bool:
    """Whether the photo shows an outline in a card's own proportions, big, holding all of a card's
    ``indices`` (in the photo's pixels): the card lies there as it is (on white paper, say), not
    squeezed into the photo.

    >>> from vision.results import IndexSeen
    >>> card = np.full((224, 224, 3), 235, np.uint8)
    >>> _ = cv2.rectangle(card, (34, 3), (190, 220), (120, 120, 120), 2)  # a card's edge, 1.4 x 1
    >>> in_own_outline(card, [IndexSeen((50, 25), (0, 1), 12), IndexSeen((174, 198), (0, -1), 12)])
    True
    >>> in_own_outline(card, [IndexSeen((15, 25), (0, 1), 12), IndexSeen((209, 198), (0, -1), 12)])
    False
    """
    h, w = img.shape[:2]
    return any(_long(q) >= tuning.OWN_SHAPE and cv2.contourArea(q) >= tuning.OWN_SIZE * h * w
               and all(inside(q, i.center) for i in indices) for q in find_quads(img))


def _long(q: np.ndarray) -> float:
    """An outline's long side over its short side (of its minimum-area rectangle)."""
    (_c, (a, b), _angle) = cv2.minAreaRect(q.astype(np.float32))
    return max(a, b) / max(min(a, b), 1e-6)
