"""Paper: where a card's paper can be, and how far each place is from clear paper.

A card's paper is near grey once the photo is balanced on its own white (:func:`photo_white`: a
lamp the camera has not balanced leaves paper orange), and an index lies on it: a cloth's weave,
whose bright threads pass for paper, shows no clear paper (:func:`paper_gap`), and ink is looked
for only near clear paper (:func:`near_paper`).

>>> import numpy as np
>>> int(grey_paper(np.full((8, 8, 3), 230, np.uint8)).min())  # white paper is grey enough everywhere
255
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import tuning
from vision.index.types import Gap


def grey_paper(bgr: np.ndarray) -> np.ndarray:
    """Where the photo, at half size (a quarter of the work), is grey enough to be a card's paper:
    saturated ((max - min) / max of its channels) no more than ``tuning.PAPER_GREY`` (255 there, else 0),
    once balanced on its own white (:func:`photo_white`), so that paper under a lamp's warm light,
    which the camera has not balanced, is grey again.

    >>> import numpy as np
    >>> img = np.full((8, 32, 3), 230, np.uint8); img[:, 16:] = (200, 110, 240)  # white | pink
    >>> grey_paper(img)[0, ::5].tolist()  # (half size: 16 columns)
    [255, 255, 0, 0]
    >>> warm = (img * np.array([0.55, 0.8, 1.0])).astype(np.uint8)  # a tungsten lamp, not balanced
    >>> grey_paper(warm)[0, ::5].tolist()
    [255, 255, 0, 0]
    """
    small = cv2.pyrDown(bgr)  # (a halving; INTER_AREA is slow where a side is odd)
    return _near_grey(small, photo_white(small))


def grey_level(level: np.ndarray) -> np.ndarray:
    """Where a paper level (:func:`vision.index.ink.relative_darkness`'s, BGR) is near grey, as a
    card's paper is under any light once balanced on the photo's white: 255 there, else 0, at half the level's
    size (it is smooth). Beside a card on a coloured cloth, the cloth's pale threads are the paper
    level of its weave, and its dark threads there are not ink on paper.

    >>> import numpy as np
    >>> level = np.full((8, 16, 3), 235, np.uint8); level[:, 8:] = (200, 120, 60)  # white | denim blue
    >>> grey_level(level)[0].tolist()
    [255, 255, 255, 255, 0, 0, 0, 0]
    """
    quarter = np.ascontiguousarray(level[::2, ::2])
    return _near_grey(quarter, photo_white(quarter))


def _near_grey(bgr: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Where ``bgr``, balanced on ``white`` (:func:`photo_white`), is saturated no more than
    ``tuning.PAPER_GREY`` (255 there, else 0)."""
    bal = cv2.multiply(bgr, (*(float(v) for v in white.max() / white), 0.0), dtype=cv2.CV_8U)
    b, g, r = cv2.split(bal)
    hi, lo = cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)
    return cv2.compare(cv2.subtract(hi, lo), cv2.multiply(hi, tuning.PAPER_GREY, dtype=cv2.CV_8U), cv2.CMP_LE)


def photo_white(bgr: np.ndarray) -> np.ndarray:
    """The colour of the photo's white (B, G, R): the mean of its places brightest in their darkest
    channel (the top ``tuning.WHITE_TOP`` percent), which are a card's paper wherever a card lies. Under a
    warm lamp the camera has not balanced, paper is orange, and this is that orange.

    >>> import numpy as np
    >>> img = np.full((20, 20, 3), (60, 120, 40), np.uint8); img[5:15, 5:15] = (130, 190, 240)
    >>> photo_white(img).round().tolist()  # a card under a warm lamp on green felt
    [130.0, 190.0, 240.0]
    """
    px = np.ascontiguousarray(bgr[::2, ::2])
    b, g, r = cv2.split(px)
    low = cv2.min(cv2.min(b, g), r)
    # the level above which tuning.WHITE_TOP percent of the places are (from the top of their histogram)
    counts = np.bincount(low.ravel(), minlength=256)[::-1].cumsum()
    level = 255 - int(np.searchsorted(counts, max(1.0, low.size * tuning.WHITE_TOP / 100)))
    white = cv2.mean(px, cv2.compare(low, level, cv2.CMP_GE))[:3]
    return np.maximum(np.array(white), 1.0)


def sized(mask: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray | None:
    """A mask resized (nearest) to an image of ``shape``, if it is not that size already."""
    if mask is None or mask.shape[:2] == shape[:2]:
        return mask
    return cv2.resize(mask, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)


def paper_gap(dark: tuple[np.ndarray, np.ndarray], grey: np.ndarray | None = None) -> np.ndarray:
    """How far (in pixels of a quarter-size map) each place is from clear paper: at the half-size
    darkness map, a 3x3 square (6x6 of the photo) all brighter than ``tuning.PAPER_CLEAR`` and lit; or,
    where noise leaves no such square, a 5x5 one bright and about as even as the photo's brightest
    places are (``tuning.PAPER_EVEN``). With ``grey`` (:func:`grey_paper`), paper is also near grey:
    saturated no more than ``tuning.PAPER_GREY``. A card shows clear paper round its indices even
    in a tight row; a cloth's weave, whose bright threads may pass for paper, does not, nor does a
    coloured cloth's pale check.

    >>> import numpy as np
    >>> img = np.full((200, 200, 3), 230, np.uint8)
    >>> img[:, 100:] = np.random.default_rng(0).integers(0, 2, (200, 100, 1)) * 200 + 20  # a weave
    >>> from vision.index.ink import relative_darkness
    >>> gap = paper_gap(relative_darkness(img))
    >>> gap.shape, int(gap[12, 5]), int(gap[12, 49]) > 10  # on paper; far into the weave
    ((50, 50), 0, True)
    >>> grainy = np.clip(img + np.random.default_rng(1).normal(0, 25, img.shape), 0, 255).astype(np.uint8)
    >>> int(paper_gap(relative_darkness(grainy))[12, 5])  # grainy paper is still paper
    0
    >>> pink = np.full((200, 200, 3), (200, 110, 240), np.uint8)  # a gingham's pale check...
    >>> pink[:, :40] = 235  # ...beside a card
    >>> dark, grey = relative_darkness(pink), grey_paper(pink)
    >>> int(paper_gap(dark, grey)[25, 40]) > 10, int(dark[1][100, 160])  # bright, but not grey: not lit
    (True, 0)
    """
    v, lit = dark
    h, w = v.shape
    size = ((w + 1) // 2, (h + 1) // 2)
    half = cv2.resize(v, size, interpolation=cv2.INTER_AREA)
    lit = cv2.resize(lit, size, interpolation=cv2.INTER_NEAREST)
    if grey is not None:
        lit = cv2.bitwise_and(lit, sized(grey, half.shape))
    sharp = cv2.bitwise_and(cv2.compare(half, tuning.PAPER_CLEAR, cv2.CMP_GT), lit)
    sharp = cv2.erode(sharp, np.ones((3, 3), np.uint8))
    # or even: on a dim, grainy photo no 3x3 square of paper is all that bright. Its grain: how much
    # the brightest places differ from the next pixel (a sample of them), against their level
    m, right = half[::2, :-1:2].ravel(), half[::2, 1::2].ravel()
    k = min(len(m) - 1, int(len(m) * (1 - tuning.EVEN_FROM / 100)))
    top = m >= np.partition(m, k)[k]
    level = max(float(np.median(m[top])), 1.0)
    grain = float(np.median(np.abs(m[top].astype(np.float32) - right[top]))) / level
    clear = sharp
    if grain >= tuning.GRAINY:  # (a clean photo's paper has clear squares enough)
        hf = half.astype(np.float32)
        mean = cv2.blur(hf, (5, 5))
        spread = cv2.sqrt(cv2.max(cv2.sqrBoxFilter(hf, cv2.CV_32F, (5, 5)) - cv2.multiply(mean, mean), 0))
        even = cv2.compare(spread, mean * min(tuning.PAPER_EVEN * grain, tuning.EVEN_MAX), cv2.CMP_LT)
        even = cv2.bitwise_and(cv2.bitwise_and(even, cv2.compare(mean, tuning.PAPER_BRIGHT, cv2.CMP_GT)), lit)
        clear = cv2.bitwise_or(sharp, even)
    # the distances taken at quarter size (a quarter of the work): a place there is clear if any of
    # its four is
    size4 = ((size[0] + 1) // 2, (size[1] + 1) // 2)
    clear = cv2.resize(clear, size4, interpolation=cv2.INTER_AREA)
    far = cv2.distanceTransform(cv2.compare(clear, 0, cv2.CMP_EQ), cv2.DIST_L1, 3)
    return np.minimum(far, 1e6)  # (no clear paper at all: every place is far)


def near_paper(gap: Gap, centres: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Which blobs or candidates (``centres`` (N, 2) and glyph ``sizes`` in pixels of a map
    ``gap.scale`` times smaller than the photo) lie within ``tuning.PAPER_REACH`` of clear paper
    (``gap.distances``: :func:`paper_gap`).

    >>> import numpy as np
    >>> gap = np.zeros((50, 50), np.float32); gap[:, 25:] = np.arange(1, 26)  # paper, then not
    >>> centres = np.array([[10.0, 10], [110, 10], [190, 10]])  # photo px; 12 and 92 px from paper
    >>> near_paper(Gap(gap, 1.0), centres, np.array([10.0, 10, 10])).tolist()
    [True, True, False]
    """
    g, f = gap.distances, gap.scale
    at = np.asarray(centres, np.float64).reshape(-1, 2) * (f / tuning.GAP_SCALE)
    x = np.clip(at[:, 0].astype(np.int64), 0, g.shape[1] - 1)
    y = np.clip(at[:, 1].astype(np.int64), 0, g.shape[0] - 1)
    reach = tuning.PAPER_REACH[0] * f * np.asarray(sizes, np.float64) + tuning.PAPER_REACH[1]
    return tuning.GAP_SCALE * g[y, x].astype(np.float64) <= reach
