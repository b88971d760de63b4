"""Cutting a corner index out of a photo, upright, as the classifier's input.

A candidate index is two points: the centre of the rank glyph and the centre of the suit pip
below it. Their distance ``u`` sets the scale and their direction sets "down", so one affine
warp gives the same upright picture of an index whatever the card's size or rotation. The window
runs from ``0.85 u`` above the glyph to ``1.75 u`` below it and ``0.8 u`` to either side (a "10"
fits). Large indices are cut from a smaller level of an image pyramid so that nothing aliases.

Each patch is white-balanced on its own paper: the reader divides each channel by the paper level
right round the glyph and pip (``INDEX_PAPER``; not the whole window, which can reach past the
card's edge into glare, a bright window or a neighbouring card), so a colour cast, a dim corner or
a backlit card looks the same to the network as a clean scan. The network is trained on patches
balanced on the whole window (``WHOLE_WINDOW``), which sometimes takes glare or the next card for
the paper and leaves the index greyer: it learns those too, and reads the reader's cleaner patches
better than a network trained on them (docs/vision-notes.md).

>>> import numpy as np
>>> img = np.full((120, 160, 3), 200, np.uint8)
>>> cut_patches(Pyramid(img), [((80.0, 50.0), (80.0, 70.0))]).shape
(1, 3, 40, 24)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.plane import local_windows

PATCH_W, PATCH_H = 24, 40
ABOVE, BELOW, SIDE = 0.85, 1.75, 0.8  # window, in units of the glyph-to-pip distance
ROWS_PER_U, COLS_PER_U = PATCH_H / (ABOVE + BELOW), PATCH_W / (2 * SIDE)  # patch pixels per unit
CEILING = 1.25  # patch values are capped here (glare a little brighter than the paper)
# the index's own paper: glyph and pip with a margin (in glyph-to-pip units: above the glyph's
# centre, below the pip's, to either side); its PAPER_Q-th percentile per channel is the paper level
AROUND_ABOVE, AROUND_BELOW, AROUND_SIDE = 0.45, 0.35, 0.4
PAPER_Q = 75
# the normalisations, by the names stored patch files (training data, taught decks) record them under
INDEX_PAPER = "index-paper-75"  # the reader's: the PAPER_Q-th percentile round glyph and pip
WHOLE_WINDOW = "window-90"  # training's: the whole window's 90th percentile (files without a name)
DARKEST_PAPER = 24  # a paper level is taken as at least this (of 255): a black patch is not stretched
# columns at either side of a patch that :func:`narrowed` paints as paper: 0.27 glyph-to-pip
# distances, beyond a one-glyph index (within about 0.35 of its centre) and where the next card's
# edge or index lies in a tight row
NARROW = 4
# the suit pip's place in a patch, for its colour (:func:`pip_tint`): its centre lies one
# glyph-to-pip distance below the glyph's; the ink within PIP_REACH of that distance
PIP_REACH = 0.35
# a photo whose channels differ by more than GREY_SPREAD (of 255) in no more than GREY_FEW of its
# pixels is greyscale
GREY_SPREAD, GREY_FEW = 8, 0.01
PIP_INK = 0.1  # a pip place no darker than this (a share of the paper) holds no ink: its colour is unknown

Point = tuple[float, float]


class Pyramid:
    """An image and its halvings, made on demand (``level(k)`` is ``2**k`` times smaller), and
    ``view``: the table as seen from above (:func:`vision.plane.plane_view`), when the camera is at
    an angle: patches are then cut as each index looks from above."""

    def __init__(self, bgr: npt.NDArray[np.uint8]) -> None:
        self.levels = [bgr]
        self._in_colour: bool | None = None
        self.view: npt.NDArray[np.float64] | None = None

    @property
    def in_colour(self) -> bool:
        """:func:`in_colour` of the image, looked at once."""
        if self._in_colour is None:
            self._in_colour = in_colour(self.levels[0])
        return self._in_colour

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
    return windows([(glyph, pip)])[0]


def windows(pairs: Sequence[tuple[Point, Point]]) -> npt.NDArray[np.float64]:
    """:func:`window` for many glyph/pip pairs at once: (N, 2, 3).

    >>> windows([((10.0, 10.0), (10.0, 30.0)), ((10.0, 10.0), (30.0, 10.0))])[:, :, 1].tolist()
    [[0.0, 1.3], [1.3, 0.0]]
    """
    gp = np.asarray(pairs, np.float64).reshape(-1, 2, 2)
    glyph = gp[:, 0]
    d = gp[:, 1] - glyph
    u = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-3)[:, None]
    down = d / u
    across = np.stack([-down[:, 1], down[:, 0]], axis=1)  # patch x: to the glyph's right
    m = np.empty((len(gp), 2, 3))
    m[:, :, 0] = -across * (2 * SIDE / PATCH_W) * u  # patch x grows to the reader's right: -across
    m[:, :, 1] = down * ((ABOVE + BELOW) / PATCH_H) * u
    # patch (PATCH_W/2, 0) sits ABOVE*u above the glyph, on the axis
    m[:, :, 2] = glyph - down * ABOVE * u - m[:, :, 0] * PATCH_W / 2
    return m


def nudged(glyph: Point, pip: Point, by: float = 0.08) -> list[tuple[Point, Point]]:
    """Six glyph/pip pairs close to the one given: the window scaled by ``1 ± by`` about its
    middle, and shifted by ``± by`` glyph-to-pip distances across and along. The finder's centres
    are blob centroids, a pixel or two off when blur or a neighbour's ink touches a glyph; a patch
    read the same way from all of them is read with more certainty than from one.

    >>> [(round(g[1], 1), p[1]) for g, p in nudged((10.0, 10.0), (10.0, 60.0), by=0.1)]  # y of glyph, pip
    [(12.5, 57.5), (7.5, 62.5), (10.0, 60.0), (10.0, 60.0), (5.0, 55.0), (15.0, 65.0)]
    """
    (gx, gy), (px, py) = glyph, pip
    dx, dy = px - gx, py - gy
    mx, my = (gx + px) / 2, (gy + py) / 2
    out = [((mx - dx / 2 * f, my - dy / 2 * f), (mx + dx / 2 * f, my + dy / 2 * f))
           for f in (1 - by, 1 + by)]
    for ox, oy in ((dy * by, -dx * by), (-dy * by, dx * by), (-dx * by, -dy * by), (dx * by, dy * by)):
        out.append(((gx + ox, gy + oy), (px + ox, py + oy)))
    return out


def narrowed(patches: npt.NDArray[np.float32], cols: int = NARROW) -> npt.NDArray[np.float32]:
    """Normalised patches (N, 3, H, W) with the outer ``cols`` columns on either side painted as
    paper (1.0): the index alone, without what lies beside it (the edge of the card over it, or the
    last card's index, in a tight row or spread).

    >>> import numpy as np
    >>> x = np.zeros((1, 3, PATCH_H, PATCH_W), np.float32)
    >>> y = narrowed(x)
    >>> y[0, 0, 0].tolist() == [1.0] * 4 + [0.0] * 16 + [1.0] * 4, float(x.max())
    (True, 0.0)
    """
    out = patches.copy()
    out[..., :cols] = 1.0
    out[..., -cols:] = 1.0
    return out


def cut_patches(pyramid: Pyramid, pairs: Sequence[tuple[Point, Point]],
                norm: str = INDEX_PAPER) -> npt.NDArray[np.float32]:
    """The upright, white-balanced index patches (N, 3, PATCH_H, PATCH_W) for glyph/pip pairs."""
    raw = np.empty((len(pairs), PATCH_H, PATCH_W, 3), np.uint8)
    if not len(pairs):
        return normalise(raw, norm)
    m = windows(pairs) if pyramid.view is None else local_windows(
        pyramid.view, np.asarray(pairs, np.float64).reshape(-1, 2, 2), windows)
    step = np.hypot(m[:, 0, 1], m[:, 1, 1])  # image pixels per patch pixel
    levels = np.clip(np.floor(np.log2(np.maximum(step, 1.0) / 1.2)), 0, 4).astype(int)
    f = 0.5**levels
    m *= f[:, None, None]
    m[:, :, 2] += (0.5 * f - 0.5)[:, None]  # pixel centres line up between levels
    for n, k in enumerate(levels.tolist()):
        raw[n] = cv2.warpAffine(pyramid.level(k), m[n], (PATCH_W, PATCH_H), flags=cv2.INTER_LINEAR
                                | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return normalise(raw, norm)


def _around() -> tuple[slice, slice]:
    """The rows and columns of a patch holding the index's own paper (glyph, pip and a margin)."""
    r0 = round((ABOVE - AROUND_ABOVE) * ROWS_PER_U)
    r1 = round((ABOVE + 1 + AROUND_BELOW) * ROWS_PER_U)
    c0 = round((SIDE - AROUND_SIDE) * COLS_PER_U)
    c1 = round((SIDE + AROUND_SIDE) * COLS_PER_U)
    return slice(r0, r1), slice(c0, c1)


def paper_level(patches: npt.NDArray[np.generic], norm: str = INDEX_PAPER) -> npt.NDArray[np.float32]:
    """(N, H, W, 3) → (N, 3): each patch's paper level per channel. ``INDEX_PAPER``: the
    ``PAPER_Q``-th percentile of the index's own surroundings (:func:`_around`), so glare or a dark
    table at the window's edge does not set it; ``WHOLE_WINDOW``: the whole window's 90th percentile.

    >>> import numpy as np
    >>> p = np.full((1, 40, 24, 3), 100, np.uint8)
    >>> p[0, :6] = 255  # glare above the index, past the card's edge
    >>> paper_level(p).tolist(), paper_level(p, WHOLE_WINDOW).tolist()
    ([[100.0, 100.0, 100.0]], [[255.0, 255.0, 255.0]])
    """
    if norm == INDEX_PAPER:
        rows, cols = _around()
        patches, q = patches[:, rows, cols], PAPER_Q
    elif norm == WHOLE_WINDOW:
        q = 90
    else:
        raise ValueError(f"no patch normalisation {norm!r}")
    n = len(patches)
    flat = np.ascontiguousarray(patches).reshape(n, -1, patches.shape[-1])
    k = int(q / 100 * (flat.shape[1] - 1))
    return np.partition(flat, k, axis=1)[:, k, :].astype(np.float32)


def normalise(patches: npt.NDArray[np.uint8], norm: str = INDEX_PAPER) -> npt.NDArray[np.float32]:
    """(N, H, W, 3) uint8 BGR → (N, 3, H, W) float32, each channel divided by its paper level
    (:func:`paper_level`) and capped at ``CEILING``.

    >>> import numpy as np
    >>> p = np.full((1, 40, 24, 3), 100, np.uint8); p[0, 20, 12] = 20
    >>> float(normalise(p)[0, 0, 1, 1]), round(float(normalise(p)[0, 0, 20, 12]), 2)
    (1.0, 0.2)
    """
    n = len(patches)
    if n == 0:
        return np.zeros((0, 3, *patches.shape[1:3]), np.float32)
    x = np.empty((n, patches.shape[3], *patches.shape[1:3]), np.float32)
    x[...] = patches.transpose(0, 3, 1, 2)
    x /= np.maximum(paper_level(patches, norm), DARKEST_PAPER)[:, :, None, None]
    return np.minimum(x, CEILING, out=x)


def stored_norm(stored: Mapping[str, Any]) -> str:
    """The normalisation a stored patch file (``np.load`` of it) records; a file from before files
    recorded it is ``WHOLE_WINDOW``.

    >>> stored_norm({"norm": np.array(INDEX_PAPER)}), stored_norm({})
    ('index-paper-75', 'window-90')
    """
    return str(stored["norm"]) if "norm" in stored else WHOLE_WINDOW


def as_read(stored: npt.NDArray[np.uint8], norm: str) -> npt.NDArray[np.uint8]:
    """Patches stored (:func:`to_bytes`) under normalisation ``norm`` as the reader cuts them
    (``INDEX_PAPER``). Both divide each
    channel by a paper level, so dividing the stored patch by its own new paper level gives what
    :func:`normalise` gives the photo, up to rounding and the ``CEILING`` cap.

    >>> import numpy as np
    >>> raw = np.full((1, 40, 24, 3), 90, np.uint8); raw[0, :6] = 250; raw[0, 20, 12] = 30
    >>> old = normalise(raw, WHOLE_WINDOW)  # glare set the paper level
    >>> new = as_read(to_bytes(old), WHOLE_WINDOW)
    >>> int(new[0, 0, 30, 12]), int(new[0, 0, 20, 12]), int(to_bytes(normalise(raw))[0, 0, 20, 12])
    (204, 67, 68)
    """
    if norm == INDEX_PAPER:
        return stored
    x = stored.astype(np.float32) * (CEILING / 255)
    level = np.maximum(paper_level(x.transpose(0, 2, 3, 1)), DARKEST_PAPER / 255)
    return to_bytes(np.minimum(x / level[:, :, None, None], CEILING))


def to_bytes(patches: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """Patches as 8-bit pictures (0..CEILING → 0..255), a quarter of the size, for storing.

    >>> import numpy as np
    >>> to_bytes(np.array([[[[0.0, 1.25, 2.0]]]], np.float32)).tolist()
    [[[[0, 255, 255]]]]
    """
    return np.clip(np.asarray(patches) * (255 / CEILING), 0, 255).astype(np.uint8)


def pip_tint(patches: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The colour of each patch's suit pip (N, 3): for blue, green and red, how much that channel
    stands above the greater of the other two over the pip's ink (the darkest half of its place,
    weighted by darkness), as a share of the ink's darkness. Red print is near 1 in red (its red
    as bright as the paper, green and blue dark) and below 0 in the others; black print near 0 in
    all three, and so is pale or hazy print of any colour. Not a number where the pip's place
    holds no ink (nothing darker than ``PIP_INK``).

    >>> import numpy as np
    >>> x = np.ones((4, 3, PATCH_H, PATCH_W), np.float32)
    >>> x[0, :, 26:31, 10:15] = 0.1  # black
    >>> x[1, :2, 26:31, 10:15] = 0.2  # red: blue and green dark, red as bright as the paper
    >>> x[2, :, 26:31, 10:15] = [[[0.7]], [[0.2]], [[0.2]]]  # blue (BGR)
    >>> [[round(float(v), 2) for v in t] for t in pip_tint(x)]
    [[0.0, 0.0, 0.0], [-1.0, -1.0, 1.0], [0.62, -0.62, -0.62], [nan, nan, nan]]
    """
    r, c = (ABOVE + 1) * ROWS_PER_U, SIDE * COLS_PER_U
    dr, dc = PIP_REACH * ROWS_PER_U, PIP_REACH * COLS_PER_U
    rows, cols = slice(round(r - dr), round(r + dr) + 1), slice(round(c - dc), round(c + dc) + 1)
    n = len(patches)
    place = np.asarray(patches, np.float32)[:, :, rows, cols].reshape(n, 3, -1)
    depth = np.clip(1 - place.min(axis=1), 0, None)
    deepest = depth.max(axis=1, initial=0.0)
    w = np.where(depth > 0.5 * deepest[:, None], depth, 0)
    weight = np.maximum((w * w).sum(axis=1), 1e-6)
    b, g, r = place[:, 0], place[:, 1], place[:, 2]
    above = np.stack([b - np.maximum(g, r), g - np.maximum(b, r), r - np.maximum(b, g)], axis=1)
    tint = (above * w[:, None]).sum(axis=2) / weight[:, None]
    tint[deepest <= PIP_INK] = np.nan
    return tint


def in_colour(bgr: npt.NDArray[np.uint8]) -> bool:
    """Whether a photo holds colour at all: a greyscale photo (or a colour file of one) has its
    three channels equal, up to a JPEG's rounding, in every pixel; a colour photo's grain alone
    makes them differ by more in some. Looked at in every eighth pixel of every eighth row.

    >>> import numpy as np
    >>> grey = np.full((100, 100, 3), 120, np.uint8)
    >>> in_colour(grey), in_colour(np.dstack([grey[..., 0], grey[..., 1], grey[..., 2] + 40]))
    (False, True)
    """
    few = np.asarray(bgr)[::8, ::8]
    b, g, r = few[..., 0], few[..., 1], few[..., 2]
    spread = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)  # uint8: never below 0
    return bool(np.count_nonzero(spread > GREY_SPREAD) > GREY_FEW * spread.size)
