"""Where is a hand moving over the table, and what changed since the table was last read?

Every frame is cut down to a small grey copy (or the camera's own lores stream is used): a few
thousand pixels, compared in well under a millisecond. :class:`MotionMap` remembers, for each
small pixel, the last frame at which it moved (differed from the frames just before it), so a
place on the table is *still* once it has not moved for a few frames, wherever else a hand may
be. :func:`changed_boxes` finds the places where the table differs from the table as last read:
the regions to read once they are still.

>>> import numpy as np
>>> table = np.full((360, 640, 3), 90, np.uint8)
>>> motion = MotionMap()
>>> [round(motion.update(small_grey(table), n), 3) for n in range(3)]
[0.0, 0.0, 0.0]
>>> motion.still_for((0, 0, 256, 144), 2)
2
>>> laid = table.copy(); laid[100:190, 300:365] = 235  # a card laid
>>> [box] = changed_boxes(small_grey(table), small_grey(laid))
>>> to_frame(box, small_grey(laid).shape, (640, 360))
(300, 100, 370, 195)
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["MOVE_SHARE", "SMALL_WIDTH", "MotionMap", "changed_boxes", "merge", "small_grey", "to_frame",
           "unread_tiles"]

Grey = npt.NDArray[np.uint8]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (end exclusive)

SMALL_WIDTH = 256  # the small copy's width: a card 130 px wide in a 1280 px frame is 26 px here
MOVE_LEVEL = 18  # grey levels a pixel must change by between frames to count as moving (noise: 2-5)
MOVE_SHARE = 0.0015  # share of the small copy moving for the tracker to say "hand over the table"
MOVE_GROW = 2  # small pixels: motion is taken to reach this far (a hand's blurred edge)
CHANGE_LEVEL = 22  # grey levels of change since the table was last read that count as a change
MIN_CHANGE = 12  # small pixels: a smaller change (a speck, a shadow's edge) is not read
JOIN = 5  # small pixels (a fifth of a card's width): changes this close are one place


def small_grey(image: npt.NDArray[np.uint8], width: int = SMALL_WIDTH) -> Grey:
    """A small, slightly blurred grey copy of a BGR frame (or of a grey lores image), ``width``
    pixels along its long side (a frame higher than wide, from a camera turned a quarter, is cut
    to the same scale as one wide)."""
    h, w = image.shape[:2]
    scale = width / max(w, h, 1)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (3, 3), 0)


def _difference(a: Grey, b: Grey) -> npt.NDArray[np.int16]:
    """``a - b`` with changes of the light taken out: an even change (an exposure step) and
    bands across the picture (a mains lamp's flicker, caught row by row by a rolling shutter).
    A card or a hand changes a part of a row; the light changes all of it.

    >>> a = np.full((4, 40), 100, np.uint8); b = a.copy(); b[1] += 30; b[2, 5:9] = 200
    >>> np.abs(_difference(b, a)).max(axis=1).tolist()
    [0, 0, 100, 0]
    """
    diff = a.astype(np.int16) - b.astype(np.int16)
    return diff - np.median(diff, axis=1, keepdims=True).astype(np.int16)


def _moving(a: Grey, b: Grey) -> npt.NDArray[np.bool_]:
    """Pixels that changed by more than ``MOVE_LEVEL`` (with the light's changes taken out)."""
    return np.abs(_difference(a, b)) > MOVE_LEVEL


class MotionMap:
    """The last frame at which each small pixel moved; a frame is compared with the last
    ``window`` frames, so a hand moving slowly (a little each frame) still counts as moving."""

    def __init__(self, window: int = 2) -> None:
        self._recent: deque[Grey] = deque(maxlen=window)
        self.last_moved: npt.NDArray[np.int64] | None = None
        self.share = 0.0

    def update(self, small: Grey, number: int) -> float:
        """Feed frame ``number``'s small copy; returns the share of it that moved."""
        if self.last_moved is None or self.last_moved.shape != small.shape:
            self._recent.clear()
            self.last_moved = np.full(small.shape, number, np.int64)
        moving = np.zeros(small.shape, bool)
        for r in self._recent:
            moving |= _moving(small, r)
        self._recent.append(small)
        self.share = float(np.count_nonzero(moving)) / moving.size
        if self.share > 0:
            grown = cv2.dilate(moving.astype(np.uint8), np.ones((2 * MOVE_GROW + 1,) * 2, np.uint8))
            self.last_moved[grown > 0] = number
        return self.share

    def still_for(self, box: Box, number: int) -> int:
        """Frames since anything moved in ``box`` (small pixels), as of frame ``number``."""
        if self.last_moved is None:
            return 0
        x0, y0, x1, y1 = box
        part = self.last_moved[max(0, y0):y1, max(0, x0):x1]
        return int(number - part.max()) if part.size else 0


def changed_boxes(before: Grey, after: Grey, ignore: list[Box] | None = None,
                  known: npt.NDArray[np.bool_] | None = None) -> list[Box]:
    """Boxes (small pixels) round each place where ``after`` differs from ``before``, leaving out
    the boxes in ``ignore`` (being read already) and, with ``known``, where ``before`` holds
    nothing yet (:func:`unread_tiles` gives those)."""
    mask = (np.abs(_difference(after, before)) > CHANGE_LEVEL).astype(np.uint8)
    for x0, y0, x1, y1 in ignore or []:
        mask[y0:y1, x0:x1] = 0
    if known is not None:
        mask[~known] = 0
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    counted = mask.copy()
    # a card laid over a card of the same paper changes only in pieces (its print, its edge):
    # pieces this close are one change
    mask = cv2.dilate(mask, np.ones((2 * JOIN + 1,) * 2, np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    sizes = np.bincount(labels[counted > 0], minlength=n)  # changed pixels in each, before joining
    h, w = after.shape
    return [(max(0, int(x) + JOIN), max(0, int(y) + JOIN), min(w, int(x + bw) - JOIN),
             min(h, int(y + bh) - JOIN))
            for k, (x, y, bw, bh, _area) in enumerate(stats[1:n], 1) if sizes[k] >= MIN_CHANGE]


def unread_tiles(known: npt.NDArray[np.bool_], ignore: list[Box] | None = None) -> list[Box]:
    """The tiles of a 4 x 3 grid (small pixels) holding a part of the table never read (where
    ``known`` is False), leaving out those overlapping the boxes in ``ignore``.

    >>> known = np.ones((144, 256), bool); known[:10, :10] = False
    >>> unread_tiles(known)
    [(0, 0, 64, 48)]
    """
    if known.all():
        return []
    h, w = known.shape
    tiles = []
    for ty in range(3):
        for tx in range(4):
            tile = (w * tx // 4, h * ty // 3, w * (tx + 1) // 4, h * (ty + 1) // 3)
            x0, y0, x1, y1 = tile
            if any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in ignore or []):
                continue
            if not known[tile[1]:tile[3], tile[0]:tile[2]].all():
                tiles.append(tile)
    return tiles


def to_frame(box: Box, small_shape: tuple[int, ...], frame_size: tuple[int, int], pad: float = 0) -> Box:
    """A small-copy box in frame pixels (``frame_size``: width, height), grown by ``pad`` px."""
    w, h = frame_size
    sx, sy = w / small_shape[1], h / small_shape[0]
    x0, y0, x1, y1 = box
    return (max(0, int(x0 * sx - pad)), max(0, int(y0 * sy - pad)),
            min(w, int(np.ceil(x1 * sx + pad))), min(h, int(np.ceil(y1 * sy + pad))))


def merge(boxes: list[Box]) -> list[Box]:
    """Boxes that overlap, joined into their bounding box until none overlap.

    >>> merge([(0, 0, 10, 10), (5, 5, 20, 20), (30, 30, 40, 40)])
    [(0, 0, 20, 20), (30, 30, 40, 40)]
    """
    out: list[list[int]] = [list(b) for b in boxes]
    joined = True
    while joined:
        joined = False
        done: list[list[int]] = []
        for b in out:
            for o in done:
                if b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                    o[:] = [min(o[0], b[0]), min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3])]
                    joined = True
                    break
            else:
                done.append(b)
        out = done
    return [(b[0], b[1], b[2], b[3]) for b in out]
