"""Cutting a corner index out of a photo, upright, as the classifier's input.

A candidate index is two points: the centre of the rank glyph and the centre of the suit pip
below it. Their distance ``u`` sets the scale and their direction sets "down", so one affine
warp gives the same upright picture of an index whatever the card's size or rotation. The window
runs from ``0.85 u`` above the glyph to ``1.75 u`` below it and ``0.8 u`` to either side (a "10"
fits). Large indices are cut from a smaller level of an image pyramid so that nothing aliases.

Each patch is white-balanced on its own paper (each channel divided by its bright level), so a
colour cast or a dim corner looks the same to the network as a clean scan.

>>> import numpy as np
>>> img = np.full((120, 160, 3), 200, np.uint8)
>>> cut_patches(Pyramid(img), [((80.0, 50.0), (80.0, 70.0))]).shape
(1, 3, 40, 24)
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

PATCH_W, PATCH_H = 24, 40
ABOVE, BELOW, SIDE = 0.85, 1.75, 0.8  # window, in units of the glyph-to-pip distance
CEILING = 1.25  # patch values are capped here (glare a little brighter than the paper)

Point = tuple[float, float]


class Pyramid:
    """An image and its halvings, made on demand (``level(k)`` is ``2**k`` times smaller)."""

    def __init__(self, bgr: npt.NDArray[np.uint8]) -> None:
        self.levels = [bgr]

    def level(self, k: int) -> npt.NDArray[np.uint8]:
        """The image ``2**k`` times smaller."""
        while len(self.levels) <= k:
            prev = self.levels[-1]
            if min(prev.shape[:2]) < 16:
                return prev
            self.levels.append(cv2.pyrDown(prev))
        return self.levels[k]


def window(glyph: Point, pip: Point) -> npt.NDArray[np.float64]:
    """The 2x3 affine map from patch pixels to image pixels for one glyph/pip pair.

    >>> m = window((10.0, 10.0), (10.0, 30.0))
    >>> [round(float(v), 1) for v in m @ [PATCH_W / 2, 0, 1]]  # top middle of the patch: above the glyph
    [10.0, -7.0]
    """
    gx, gy = glyph
    dx, dy = pip[0] - gx, pip[1] - gy
    u = max(float(np.hypot(dx, dy)), 1e-3)
    down = np.array([dx, dy]) / u
    across = np.array([-down[1], down[0]])  # patch x: to the glyph's right
    sx = 2 * SIDE * u / PATCH_W
    sy = (ABOVE + BELOW) * u / PATCH_H
    m = np.empty((2, 3))
    m[:, 0] = -across * sx  # patch x grows to the reader's right, which is -across in image terms
    m[:, 1] = down * sy
    # patch (PATCH_W/2, 0) sits ABOVE*u above the glyph, on the axis
    m[:, 2] = np.array([gx, gy]) - down * ABOVE * u - m[:, 0] * PATCH_W / 2
    return m


def cut_patches(pyramid: Pyramid, pairs: Sequence[tuple[Point, Point]]) -> npt.NDArray[np.float32]:
    """The upright, white-balanced index patches (N, 3, PATCH_H, PATCH_W) for glyph/pip pairs."""
    raw = np.empty((len(pairs), PATCH_H, PATCH_W, 3), np.uint8)
    for n, (glyph, pip) in enumerate(pairs):
        m = window(glyph, pip)
        step = float(np.hypot(m[0, 1], m[1, 1]))  # image pixels per patch pixel
        k = max(0, min(4, int(np.floor(np.log2(max(step, 1.0) / 1.2)))))
        img = pyramid.level(k)
        f = 0.5**k
        mk = m * f
        mk[:, 2] += 0.5 * f - 0.5  # pixel centres line up between levels
        raw[n] = cv2.warpAffine(img, mk, (PATCH_W, PATCH_H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
    return normalise(raw)


def normalise(patches: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """(N, H, W, 3) uint8 BGR → (N, 3, H, W) float32, each channel divided by its paper level
    (the patch's 90th percentile in that channel).

    >>> import numpy as np
    >>> p = np.full((1, 4, 4, 3), 100, np.uint8); p[0, 0, 0] = 20
    >>> float(normalise(p)[0, 0, 1, 1]), round(float(normalise(p)[0, 0, 0, 0]), 2)
    (1.0, 0.2)
    """
    n = len(patches)
    if n == 0:
        return np.zeros((0, 3, *patches.shape[1:3]), np.float32)
    flat = patches.reshape(n, -1, 3)
    k = int(0.9 * (flat.shape[1] - 1))
    paper = np.partition(flat, k, axis=1)[:, k, :].astype(np.float32)  # (N, 3)
    x = patches.astype(np.float32) / np.maximum(paper, 24.0)[:, None, None, :]
    return np.minimum(x, CEILING).transpose(0, 3, 1, 2)


def to_bytes(patches: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """Patches as 8-bit pictures (0..CEILING → 0..255), a quarter of the size, for storing.

    >>> import numpy as np
    >>> to_bytes(np.array([[[[0.0, 1.25, 2.0]]]], np.float32)).tolist()
    [[[[0, 255, 255]]]]
    """
    return np.clip(np.asarray(patches) * (255 / CEILING), 0, 255).astype(np.uint8)
