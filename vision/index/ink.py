"""Ink: what is much darker than the paper round it, at a few darkness levels.

Each colour channel is taken against its own local paper level (the brightest nearby, smoothed),
so black and red print both count and light wood does not; ink is also darker than the paper right
beside it, so that a card's own paper next to glare is not ink. :func:`ink_components` takes the
ink at one :class:`vision.tuning.Level` as connected components.

>>> import numpy as np
>>> v, lit = relative_darkness(np.full((60, 60, 3), 220, np.uint8))
>>> int(v.min()), ink_components(v, lit, tuning.LEVELS[0]).count  # blank paper: no ink, one background
(200, 1)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import tuning
from vision.index.paper import grey_level, sized
from vision.index.types import Components
from vision.tuning import Level


def _darkest_channel(bgr: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel of ``bgr`` (which the caller lets go of).

    >>> import numpy as np
    >>> int(_darkest_channel(np.array([[[9, 4, 7]]], np.uint8))[0, 0])
    4
    """
    b, g, r = cv2.split(bgr)
    del bgr  # the caller's only reference was the argument: three channels instead of four
    return cv2.min(cv2.min(b, g), r)


def relative_darkness(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Darkness against the local paper (200 = as bright as the paper; min over channels) and a
    mask of places bright enough to be paper at all.

    >>> import numpy as np
    >>> img = np.full((50, 50, 3), 230, np.uint8); img[20:30, 20:24] = 20
    >>> v, lit = relative_darkness(img)
    >>> int(v[25, 22]) < 40, int(v[5, 5]), int(lit[5, 5])
    (True, 200, 255)
    >>> img = np.full((60, 90, 3), (100, 95, 70), np.uint8); img[:, 60:] = 255  # a card by a bright window
    >>> v, lit = relative_darkness(img)
    >>> int(v[30, 50]), int(lit[30, 50])  # its paper by the glare is paper, not ink
    (200, 255)
    """
    # each channel against its own local paper level (white balance by neighbourhood): black and
    # red print both fall well below 1 in their darkest channel, a colour cast does not
    # (the paper level is smooth: it is estimated at half size, a quarter of the work)
    h, w = bgr.shape[:2]
    if min(h, w) >= 4 * tuning.LOCAL:
        half = tuning.LOCAL // 2 | 1
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (half, half))
        small = cv2.resize(bgr, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA)
        level = cv2.blur(cv2.dilate(small, kernel), (half, half))  # the paper level at half size
        paper3 = cv2.resize(level, (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (tuning.LOCAL, tuning.LOCAL))
        level = paper3 = cv2.blur(cv2.dilate(bgr, kernel), (tuning.LOCAL, tuning.LOCAL))
    # (each frame-sized step's input is let go as soon as it is used: a 1280x720 frame's reading
    # then peaks about 11 MB lower, on a Pi Zero 2 W's 512 MB)
    v = _darkest_channel(cv2.divide(bgr, paper3, scale=200.0))
    del paper3
    # ink is also darker than the paper right beside it: near a glare or a bright window the wide
    # window's paper level is the glare's, and the card's own paper would count as ink
    near = cv2.dilate(bgr, cv2.getStructuringElement(cv2.MORPH_RECT, (tuning.NEAR, tuning.NEAR)))
    v = cv2.max(v, _darkest_channel(cv2.divide(bgr, near, scale=200.0)))
    del near
    # paper is bright in every channel (white under any light), so a saturated felt is not paper
    # even where its own darkest channel happens to be noisy; and not much darker than the brightest
    # (though a backlit card's grey paper can be a quarter as bright as the window behind it)
    # (decided on the paper level as estimated, at half size: it is smooth)
    pb, pg, pr = cv2.split(level)
    low = cv2.min(cv2.min(pb, pg), pr)
    step = 4 * low.shape[0] // h
    bright = float(np.percentile(low[::step, ::step], 99.5))
    floor = tuning.BLACK * min(1.0, bright / tuning.EXPOSED)  # black is darker still in a dark photo
    lit = cv2.compare(low, max(floor, tuning.DIM_PAPER * bright), cv2.CMP_GT)
    # dimmer still, if it is grey (paper under a cast, not a coloured cloth)
    high = cv2.max(cv2.max(pb, pg), pr)
    grey = cv2.compare(low, cv2.multiply(high, tuning.GREY_PAPER), cv2.CMP_GE)
    dimmer = cv2.compare(low, max(floor, tuning.DIMMEST_PAPER * bright), cv2.CMP_GT)
    lit = cv2.bitwise_or(lit, cv2.bitwise_and(dimmer, grey))
    # and a paper level that is near grey (:func:`grey_level`): a coloured cloth's dark threads
    # beside a card are not ink on paper
    lit = cv2.bitwise_and(lit, sized(grey_level(level), lit.shape))
    if lit.shape != v.shape:
        lit = cv2.resize(lit, (w, h), interpolation=cv2.INTER_NEAREST)
    return v, lit


def ink_components(v: np.ndarray, lit: np.ndarray, level: Level, *, labels: bool = True) -> Components:
    """Ink at one darkness level, as connected components: blobs darker than ``level.ink`` holding
    a core darker than ``level.core`` (solid) or, faint, only one darker than ``level.faint``,
    eroded by a ``level.thin`` square; blobs with neither are given zero area. ``labels``: keep
    the labels image (16-bit where the labels fit); without it, ``Components.labels`` is None.

    >>> import numpy as np
    >>> v = np.full((40, 40), 200, np.uint8); v[5:15, 5:9] = 40; v[25:30, 25:30] = 110
    >>> ink = ink_components(v, np.full_like(v, 255), Level(116, 90, 1, 90))
    >>> ink.count, sorted(int(a) for a in ink.stats[1:, 4]), ink.solid[1:].tolist()
    (3, [0, 40], [True, False])
    >>> int(ink_components(v, np.full_like(v, 255), Level(116, 90, 1, 112)).stats[2, 4])  # faint: kept
    25
    >>> v[15:25, 6] = 130  # a blurred bridge of one pixel joins the two blobs...
    >>> v[25, 6:25] = 130
    >>> ink_components(v, np.full_like(v, 255), Level(150, 120, 1, 120)).count
    2
    >>> ink_components(v, np.full_like(v, 255), Level(150, 120, 3, 120)).count  # ...thinned: split
    3
    """
    ink = cv2.compare(v, level.ink, cv2.CMP_LT)
    cv2.bitwise_and(ink, lit, dst=ink)
    if level.thin > 1:
        ink = cv2.erode(ink, np.ones((level.thin, level.thin), np.uint8))
    n, image, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_GRANA)
    faint = max(level.core, level.faint)
    del ink
    sel = v < faint  # (the one frame-sized map here: the rest is as long as the dark pixels are many)
    lab, dark = image[sel], v[sel]
    del sel
    inked = lab > 0
    lab, dark = lab[inked], dark[inked]
    has_core = np.bincount(lab, minlength=n) > 0
    solid = has_core if faint == level.core else np.bincount(lab[dark < level.core], minlength=n) > 0
    stats[~has_core, 4] = 0
    if not labels:
        return Components(n, stats, cents, solid, None)
    return Components(n, stats, cents, solid, image.astype(np.uint16) if n <= 1 << 16 else image)
