"""The finder's values: blob identities, ink components, candidates and looks.

>>> BlobId(look=1000, blob=7).look >= 1000  # a blob of the first halving's first level
True
>>> c = scaled_up(Candidate((10, 20), (0, 1), 8, (10, 17), (10, 23), (BlobId(0, 1),)), 2)
>>> c.center, c.size
((20.5, 40.5), 16)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

UNREAD_LOOK = 500  # the looks where ink is unexplained are numbered from this (500-504)
HALVING_LOOK = 1000  # the halvings' looks from this many times the halving (1000, 2000)


@dataclass(frozen=True)
class BlobId:
    """One ink blob of one look at the photo, unique across all of a reading's looks: ``look``
    names the look and darkness level it was found at (the first look's levels from 0, the second
    look's tiles after them, the looks where ink is unexplained from ``UNREAD_LOOK``, the
    halvings from ``HALVING_LOOK``), ``blob`` is its component label there, and ``scale`` how many times
    smaller than the photo the map was (for blobs taken whole, :mod:`vision.index.whole`)."""

    look: int
    blob: int
    scale: int = 1


@dataclass(frozen=True)
class Components:
    """Ink at one darkness level as connected components: ``count`` (with the background, label 0),
    ``stats`` and ``centroids`` as OpenCV gives them, ``solid`` (per label: the blob holds a core),
    and the ``labels`` image (None where it was not kept)."""

    count: int
    stats: np.ndarray
    centroids: np.ndarray
    solid: np.ndarray
    labels: np.ndarray | None


@dataclass(frozen=True)
class Gap:
    """The photo's distance to clear paper (:func:`vision.index.paper.paper_gap`, a quarter-size
    map) and ``scale``: how many of the photo's pixels one pixel of the map being searched is."""

    distances: np.ndarray
    scale: float


@dataclass(frozen=True)
class WholeBlobs:
    """Blobs that may each be a whole small index (:mod:`vision.index.whole`): the ``labels`` image
    of their level, their labels (``which``), ``stats`` and ``centroids``."""

    labels: np.ndarray
    which: np.ndarray
    stats: np.ndarray
    centroids: np.ndarray


@dataclass
class Candidate:
    """A possible corner index: where its glyph and pip are, which way is down, glyph size."""

    center: tuple[float, float]
    down: tuple[float, float]
    size: float
    rank_pos: tuple[float, float]
    suit_pos: tuple[float, float]
    labels: tuple[BlobId, ...]  # the ink blobs it is made of (glyph, a 10's other digit, pip)
    crowd: int = 0  # blobs of glyph size close round the glyph (an index stands in paper: few)
    guessed: bool = False  # glyph and pip placed from the shape of one blob (:mod:`vision.index.whole`)


@dataclass
class Notes:
    """What a first look saw that asks for another: tiny paper-ringed blobs left unpaired (glyphs
    too small to pair at this size), and blobs the shape of a whole small index (see
    :func:`vision.index.looks.look_unread`)."""

    small: list[np.ndarray]
    whole: WholeBlobs | None = None


@dataclass
class Look:
    """A first look at a photo (:func:`vision.index.looks.first_look`): its candidates, its darkness
    map (:func:`vision.index.ink.relative_darkness`), its distance to clear paper
    (:func:`vision.index.paper.paper_gap`), and the centres of tiny glyph-like blobs left over,
    which ask for a second look (:func:`vision.index.tiling.look_again`)."""

    found: list[Candidate]
    dark: tuple[np.ndarray, np.ndarray]
    gap: np.ndarray  # quarter-size px
    small: np.ndarray  # (N, 2) x, y
    whole: WholeBlobs | None = None  # Notes.whole
    bgr: np.ndarray | None = None  # the photo
    grey: np.ndarray | None = None  # where the photo is grey enough to be paper (paper.grey_paper)


def scaled_up(c: Candidate, f: float) -> Candidate:
    """A candidate found on a pyramid level ``f`` times smaller, in the image's own pixels (all
    else, such as whether it was ``guessed``, as found).

    >>> c = scaled_up(Candidate((10, 20), (0, 1), 8, (10, 17), (10, 23), (BlobId(0, 1),), 2, True), 2)
    >>> c.center, c.size, c.rank_pos, c.crowd, c.guessed
    ((20.5, 40.5), 16, (20.5, 34.5), 2, True)
    """
    return replace(c, center=up(c.center, f), size=c.size * f, rank_pos=up(c.rank_pos, f),
                   suit_pos=up(c.suit_pos, f))


def up(p: tuple[float, float], f: float) -> tuple[float, float]:
    """A point of a pyramid level ``f`` times smaller back in the image (pixel centres line up);
    ``p`` may also be a pair of arrays (its xs and ys)."""
    return ((p[0] + 0.5) * f - 0.5, (p[1] + 0.5) * f - 0.5)


def enlarged_back(p: tuple[float, float], x0: int, y0: int) -> tuple[float, float]:
    """A point of a twice-enlarged crop back in the image (pixel centres line up)."""
    return (p[0] / 2 - 0.25 + x0, p[1] / 2 - 0.25 + y0)
