"""Is a hand over the table, and what changed since the table was last read?

Every frame is cut down to a small grey copy (or the camera's own lores stream is used): a few
thousand pixels, compared in well under a millisecond. A frame that differs from the frames
just before it is *moving* (a hand reaching in); once the small copies stay alike for a few
frames the table is *still*, and the places where it differs from the table as last read are
the regions to read again.

>>> import numpy as np
>>> table = np.full((360, 640, 3), 90, np.uint8)
>>> gate = MotionGate(settle=2)
>>> [gate.update(small_grey(table)) for _ in range(3)]
[False, False, False]
>>> gate.still_for
3
>>> laid = table.copy(); laid[100:190, 300:365] = 235  # a card laid
>>> boxes = changed_regions(small_grey(table), small_grey(laid), (640, 360))
>>> [(x0 <= 300, y0 <= 100, x1 >= 365, y1 >= 190) for x0, y0, x1, y1 in boxes]
[(True, True, True, True)]
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["SMALL_WIDTH", "MotionGate", "changed_regions", "small_grey"]

Grey = npt.NDArray[np.uint8]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in the frame's pixels

SMALL_WIDTH = 256  # the small copy's width: a card 130 px wide in a 1280 px frame is 26 px here
MOVE_LEVEL = 18  # grey levels a pixel must change by to count as moving (sensor noise is 2-5)
MOVE_SHARE = 0.0015  # share of the small copy that must move for the frame to be moving
CHANGE_LEVEL = 22  # grey levels of change since the last reading that count as a change
MIN_CHANGE = 12  # small-copy pixels: a smaller change (a speck, a shadow's edge) is not read
PAD = 0.05  # each changed region is read with this share of the frame's width around it
WHOLE = 0.35  # changes over this share of the frame: read the whole frame instead


def small_grey(image: npt.NDArray[np.uint8], width: int = SMALL_WIDTH) -> Grey:
    """A small, slightly blurred grey copy of a BGR frame (or of a grey lores image)."""
    h, w = image.shape[:2]
    height = max(1, round(h * width / w))
    small = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (3, 3), 0)


def _moved(a: Grey, b: Grey) -> float:
    """Share of pixels that changed by more than ``MOVE_LEVEL`` (an even change of the light,
    such as an exposure step, is taken out first)."""
    diff = a.astype(np.int16) - b.astype(np.int16)
    diff -= int(np.median(diff))
    return float(np.count_nonzero(np.abs(diff) > MOVE_LEVEL)) / diff.size


class MotionGate:
    """Tells moving frames from still ones: ``update`` returns True while something moves.

    A frame is compared with the last ``window`` frames, so a hand moving slowly (a little each
    frame) still counts as moving. ``still_for`` is how many frames in a row have been still.
    """

    def __init__(self, settle: int = 3, window: int = 3) -> None:
        self.settle = settle
        self._recent: deque[Grey] = deque(maxlen=window)
        self.still_for = 0

    def update(self, small: Grey) -> bool:
        """Feed the next small copy; True when the frame is moving."""
        moving = any(r.shape == small.shape and _moved(small, r) > MOVE_SHARE for r in self._recent)
        if self._recent and self._recent[-1].shape != small.shape:
            self._recent.clear()
        self._recent.append(small)
        self.still_for = 0 if moving else self.still_for + 1
        return moving

    @property
    def settled(self) -> bool:
        """True once the table has been still for ``settle`` frames."""
        return self.still_for >= self.settle


def changed_regions(before: Grey | None, after: Grey, frame_size: tuple[int, int]) -> list[Box]:
    """The regions of a ``frame_size`` (width, height) frame where ``after`` differs from
    ``before`` (small copies), padded for reading and merged where they touch; the whole frame
    when there is no ``before`` or the changes cover much of it."""
    w, h = frame_size
    whole = [(0, 0, w, h)]
    if before is None or before.shape != after.shape:
        return whole
    diff = cv2.absdiff(before, after)
    mask = (diff > CHANGE_LEVEL).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    sx, sy = w / after.shape[1], h / after.shape[0]
    pad = PAD * w
    boxes: list[list[float]] = []
    for k in range(1, n):
        x, y, bw, bh, area = stats[k]
        if area < MIN_CHANGE:
            continue
        boxes.append([max(0.0, x * sx - pad), max(0.0, y * sy - pad),
                      min(float(w), (x + bw) * sx + pad), min(float(h), (y + bh) * sy + pad)])
    merged = _merge(boxes)
    if sum((b[2] - b[0]) * (b[3] - b[1]) for b in merged) > WHOLE * w * h:
        return whole
    return [(int(b[0]), int(b[1]), int(np.ceil(b[2])), int(np.ceil(b[3]))) for b in merged]


def _merge(boxes: list[list[float]]) -> list[list[float]]:
    """Boxes that overlap, joined into their bounding box until none overlap."""
    merged = True
    while merged:
        merged = False
        out: list[list[float]] = []
        for b in boxes:
            for o in out:
                if b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                    o[:] = [min(o[0], b[0]), min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3])]
                    merged = True
                    break
            else:
                out.append(list(b))
        boxes = out
    return boxes
