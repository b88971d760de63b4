"""The table's plane: how a camera that does not look straight down sees the table, from the
outlines of the cards lying on it.

A card is a rectangle of a known shape (poker 63 × 88 mm, bridge 57 × 89 mm). Seen from above,
every card outline is such a rectangle; seen from a camera at an angle, the table is foreshortened
and its cards are drawn as trapezoids and parallelograms, squeezed along the camera's tilt. A card
turned across that squeeze then shows the reader an index squeezed across its width: a glyph the
network reads less surely, or not at all. :func:`plane_view` finds the homography that turns the
photo back into the table seen from above, fitted so that every card outline becomes a rectangle
of a card's shape; the reader then cuts each index patch as it would look from above
(:func:`vision.patch.windows`), and nothing else changes. A camera that already looks straight
down gives ``None``: its outlines are rectangles as they are.

>>> import numpy as np
>>> card = np.float32([[0, 0], [63, 0], [63, 88], [0, 88]])
>>> quads = [card + (x, y) for x, y in ((100, 100), (300, 120), (500, 90), (200, 400))]
>>> plane_view(quads, (720, 1280)) is None  # straight down: nothing to correct
True
>>> squeeze = np.float32([[1, 0, 0], [0, 0.6, 0], [0, 0, 1]])  # a camera tilted about 53 degrees
>>> turned = [card @ np.float32([[0.8, 0.6], [-0.6, 0.8]]) + (x, y) for x, y in ((150, 200), (600, 300))]
>>> seen = [cv2.perspectiveTransform(q[None], squeeze)[0] for q in quads + turned]
>>> view = plane_view(seen, (720, 1280))
>>> round(float(squeezed(view, (640, 360))), 2)  # how much the table is squeezed at the centre
0.6
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

# the shapes of cards (long side / short side): poker and bridge
CARD_SHAPES = (88 / 63, 89 / 57)
MIN_OUTLINES = 3  # outlines it takes to fit a view (one card's shape can be either of CARD_SHAPES)
# a view is used only where the table is squeezed by this much somewhere in the photo (1 = not at
# all); less is within what the reader reads as it is
MIN_SQUEEZE = 0.88
SHAPE_WEIGHT = 0.5  # an outline's shape error counts this much against its corners' (in radians²)
# one outline's error e counts as WORST * e / (WORST + e): never more than WORST (a table's edge or a
# court's frame taken for a card), yet still less as the view makes it more like a card
WORST = 0.3
# the outlines' mean error under which they are taken for cards seen from above as they are
# (corners a few degrees from square, as outlines of cards seen from above are found); a view must
# bring them under it too
STRAIGHT_DOWN = 0.02

F64 = npt.NDArray[np.float64]
# where the search starts from: squeezes of every strength and direction up to a camera about 60
# degrees off the vertical (an outline far from a card's shape says little about which way to go)
GRID = [np.array([a, b, 0.0, 0.0]) for a in np.linspace(-0.45, 0.45, 7) for b in np.linspace(-0.45, 0.45, 7)
        if a * a + b * b < 0.25]


def plane_view(quads: Sequence[np.ndarray], shape: tuple[int, ...]) -> F64 | None:
    """The 3x3 homography from the photo (``shape``: its height and width first) to the table as
    seen from above, at the photo's scale at its centre; None when the card outlines ``quads``
    ((4, 2) corners in order) are too few to tell, or already rectangles of a card's shape
    (the camera looks straight down)."""
    if len(quads) < MIN_OUTLINES:
        return None
    h, w = shape[:2]
    norm = np.array([[2 / max(h, w), 0, -w / max(h, w)], [0, 2 / max(h, w), -h / max(h, w)], [0, 0, 1]])
    pts = np.stack([np.asarray(q, np.float64).reshape(4, 2) for q in quads])
    pts = pts @ norm[:2, :2].T + norm[:2, 2]
    start = np.zeros(4)
    before = _error(start, pts)
    if before < STRAIGHT_DOWN * len(quads):
        return None
    best = _fit(pts, min(GRID, key=lambda g: _error(g, pts)))
    after = _error(best, pts)
    if after > 0.5 * before or after > STRAIGHT_DOWN * len(quads):
        # no view makes the outlines much more like cards than the photo does, or none makes them all
        # cards (they do not lie on one plane: held in a hand, or not cards)
        return None
    view = np.linalg.inv(norm) @ _homography(best) @ norm
    corners = [(0, 0), (w, 0), (w, h), (0, h), (w / 2, h / 2)]
    if min(squeezed(view, p) for p in corners) > MIN_SQUEEZE:
        return None
    return view


def squeezed(view: F64, at: tuple[float, float]) -> float:
    """How much the photo squeezes the table at the point ``at`` (photo pixels): the smaller over
    the larger of the local stretches (1: not at all).

    >>> squeezed(np.diag([1.0, 2.0, 1.0]), (10, 10))
    0.5
    """
    s = np.linalg.svd(jacobian(view, at), compute_uv=False)
    return float(s[1] / s[0])


def jacobian(view: F64, at: tuple[float, float]) -> F64:
    """The 2x2 derivative of the homography ``view`` at the point ``at``.

    >>> jacobian(np.diag([2.0, 3.0, 1.0]), (5, 5)).tolist()
    [[2.0, 0.0], [0.0, 3.0]]
    """
    x, y = at
    u, v, s = view @ (x, y, 1.0)
    return np.array([[view[0, 0] * s - u * view[2, 0], view[0, 1] * s - u * view[2, 1]],
                     [view[1, 0] * s - v * view[2, 0], view[1, 1] * s - v * view[2, 1]]]) / (s * s)


def _homography(p: F64) -> F64:
    """The view of parameters ``p`` in normalised coordinates: a symmetric squeeze (``p[0]``,
    ``p[1]``) of area 1 after a tilt of the horizon (``p[2]``, ``p[3]``), which leaves the centre
    where it is."""
    a, b, l1, l2 = p
    squeeze = np.array([[1 + a, b, 0], [b, 1 - a, 0], [0, 0, 1]])
    squeeze[:2, :2] /= np.sqrt(max(1 - a * a - b * b, 1e-6))
    return squeeze @ np.array([[1, 0, 0], [0, 1, 0], [l1, l2, 1]])


def _error(p: F64, pts: F64) -> float:
    """How far the outlines ``pts`` (N, 4, 2), seen through the view ``p``, are from rectangles of
    a card's shape: their corners' angles from square and their sides' ratio from a card's, each
    outline's error bounded by ``WORST``."""
    if abs(p[0]) >= 0.95 or abs(p[1]) >= 0.95 or p[0] ** 2 + p[1] ** 2 >= 0.9:
        return float("inf")
    hm = _homography(p)
    q = pts @ hm[:2, :2].T + hm[:2, 2]
    s = pts @ hm[2, :2] + hm[2, 2]
    if (s <= 0.05).any():
        return float("inf")
    q = q / s[..., None]
    sides = np.roll(q, -1, axis=1) - q
    length = np.maximum(np.hypot(sides[..., 0], sides[..., 1]), 1e-9)
    unit = sides / length[..., None]
    cos = (unit * np.roll(unit, 1, axis=1)).sum(axis=2)  # each corner: its two sides
    corners = (np.arcsin(np.clip(cos, -1, 1)) ** 2).sum(axis=1)
    a, b = (length[:, 0] + length[:, 2]) / 2, (length[:, 1] + length[:, 3]) / 2
    ratio = np.log(np.maximum(a, b) / np.minimum(a, b))
    shape = np.min((ratio[:, None] - np.log(CARD_SHAPES)) ** 2, axis=1)
    e = corners + SHAPE_WEIGHT * shape
    return float((WORST * e / (WORST + e)).sum())


def _fit(pts: F64, start: F64) -> F64:
    """The view's parameters that make the outlines most like cards: Nelder and Mead's simplex
    search from ``start`` (four parameters, a few hundred steps of a cheap error)."""
    simplex = np.vstack([start, start + np.diag([0.08, 0.08, 0.2, 0.2])])
    err = np.array([_error(s, pts) for s in simplex])
    for _ in range(400):
        order = np.argsort(err)
        simplex, err = simplex[order], err[order]
        if err[-1] - err[0] < 1e-4 * err[0] + 1e-9:
            break
        centre = simplex[:-1].mean(axis=0)
        worst = simplex[-1]
        reflected = centre + (centre - worst)
        er = _error(reflected, pts)
        if er < err[0]:
            expanded = centre + 2 * (centre - worst)
            ee = _error(expanded, pts)
            simplex[-1], err[-1] = (expanded, ee) if ee < er else (reflected, er)
        elif er < err[-2]:
            simplex[-1], err[-1] = reflected, er
        else:
            contracted = centre + 0.5 * (worst - centre)
            ec = _error(contracted, pts)
            if ec < err[-1]:
                simplex[-1], err[-1] = contracted, ec
            else:
                simplex[1:] = simplex[0] + 0.5 * (simplex[1:] - simplex[0])
                err[1:] = [_error(s, pts) for s in simplex[1:]]
    return simplex[int(np.argmin(err))]


def local_windows(view: F64, pairs: F64, window: F64) -> F64:
    """Patch-to-photo maps (N, 2, 3) for glyph/pip ``pairs`` (N, 2, 2) in photo pixels, cut as the
    index looks from above: ``window`` maps each pair, taken to the table's plane through ``view``,
    to its patch there (:func:`vision.patch.windows`), and each is brought back to the photo by the
    view's local derivative at the index."""
    flat = pairs.reshape(-1, 1, 2)
    up = cv2.perspectiveTransform(flat, view).reshape(-1, 2, 2)
    m = window(up)  # patch → plane
    back = np.linalg.inv(view)
    centre = up.mean(axis=1)
    out = np.empty_like(m)
    for n, c in enumerate(centre):
        jac = jacobian(back, (float(c[0]), float(c[1])))
        origin = cv2.perspectiveTransform(c.reshape(1, 1, 2), back)[0, 0]
        out[n, :, :2] = jac @ m[n, :, :2]
        out[n, :, 2] = jac @ (m[n, :, 2] - c) + origin
    return out
