"""Finding corner indices: ink components paired as a rank glyph above a suit pip.

Ink is whatever is much darker than the paper around it (each colour channel against its local
maximum), so black and red print both count and light wood does not; and darker than the paper
right beside it too, so that a card's own paper next to glare or a bright window is not ink. The
mask is taken at a few darkness levels, strict first: a strict level separates a glyph from the
card's edge or a blur that joins them, a loose one catches faint, hazy or pale print, and the loose
mask thinned by a pixel all round splits a glyph from its pip or the card's frame where blur has
bridged them; and where the cards read so far leave ink unexplained (:func:`look_unread`), a
strictest level splits a glyph from a paler line it touches (a court card's frame, the edge of a
card lying over it) and a faintest one catches thin print that blur has paled (and where nothing
has been read, a palest one, print under a veil of glare). At each level, every
component that could be a rank glyph is paired with a component below it of suit-pip size; the
vector glyph → pip is the card's "down", which fixes any rotation. A glyph's side-by-side neighbour
joins it (the "1" and "0" of a "10"). An index lies on a card's paper, so only ink near clear paper
is looked at (:func:`paper_gap`): a cloth's weave, whose bright threads pass for paper, offers the
network nothing. Only the geometry is returned: the network (:mod:`vision.cnn`) reads the upright
patch cut from the photo itself (:mod:`vision.patch`).

>>> import numpy as np
>>> find_indices(np.full((120, 160, 3), 200, np.uint8))
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.quads import inside_all

LOCAL = 31  # window (px) for the local paper brightness
NEAR = 13  # window (px) for the paper right beside the ink (within half a stroke)
# paper is at least this bright in its darkest channel, against the photo's brightest; or, if its
# darkest channel is at least GREY_PAPER of its brightest (grey, not a coloured cloth), DIMMEST_PAPER
DIM_PAPER, DIMMEST_PAPER, GREY_PAPER = 0.3, 0.2, 0.55
# and never darker than BLACK (of 255) in a photo whose brightest paper is EXPOSED or brighter; in a
# darker photo (underexposed: a dim room, a fixed exposure) in proportion
BLACK, EXPOSED = 40.0, 200.0
# (ink, core, thin, faint) darkness levels, 200 = as bright as the paper: ink is darker than the
# first, each ink blob holds a pixel darker than the second, and the mask is eroded by a thin x thin
# square; a rank glyph may hold only a pixel darker than the fourth (its thin strokes blur paler
# than a solid pip; the pip it is paired with still needs the core)
Level = tuple[int, int, int, int]
LEVELS: tuple[Level, ...] = ((116, 90, 1, 90), (150, 120, 1, 135))
# the loose level thinned by a pixel (a 3x3 erosion): it splits a glyph from its pip, a frame or an
# edge that blur has bridged with a pixel or two. Looked at where the first look's cards leave ink
# unexplained (:func:`look_unread`), and on the halvings of a big photo: over the whole frame it
# cost 3-4 ms of every 1280x720 frame and changed no card read in 1,018 photos
THIN: Level = (150, 120, 3, 120)
# the strictest and the faintest levels, looked at only where the cards read so far do not explain
# the ink (:func:`look_unread`): the one splits a glyph from a paler line it touches, the other
# catches thin strokes that blur has paled to barely darker than the paper (a glyph only: a pip is
# solid, darker than the faint level's core)
STRICT: Level = (75, 50, 1, 50)
FAINT: Level = (185, 150, 1, 170)
# and, where no card has been read at all, a paler one still: a veil of glare over a glossy card
# (its print at a third of its contrast) leaves no pip darker than the faint level's core. Only
# then: over a textured table it finds the texture, 4-8 ms a frame
PALE: Level = (190, 170, 1, 178)
UNREAD_TAG = 500  # their components' labels are tagged apart from every other look's (500-504)
# a whole small index as one blob at the loose level (:func:`_whole_indices`): its size (px), fill
# of its box, paper round it, how much longer than wide (from its second moments); at most
# WHOLE_CROWD like it within WHOLE_REACH of its size round it and MAX_WHOLE in the photo (more is
# texture); the paper round it no more saturated than WHOLE_GREY (a card, not a coloured cloth);
# and where the glyph and pip sit along it and the glyph's size (fractions of its length)
WHOLE_LEVEL = 1
WHOLE_SIZE, WHOLE_FILL, WHOLE_RING, WHOLE_LONG = (8, 40), (0.2, 0.85), 0.7, (1.4, 4.0)
WHOLE_CROWD, WHOLE_REACH, MAX_WHOLE, WHOLE_GREY = 3, 2.0, 200, 0.4
GLYPH_AT, PIP_AT, GLYPH_OF = 0.22, 0.28, 0.55
# tiny blobs asking for a second look are taken from the first (strict) level only: a small card's
# print is as dark as a big one's, while a cloth's weave shows at the loose levels (and cost 5 ms)
NOTE_LEVELS = 1
MAX_FAINT = 100  # per darkness level: more faint glyph-sized blobs than this are texture
MAX_PAIRS = 1000  # per darkness level: a busy frame stops here (the least crowded glyphs first)
MAX_CANDIDATES = 1000  # per photo, the least crowded first (bounds the network's work)
TWIN_AREA = 0.08  # blobs whose boxes match to a pixel and areas to this fraction are twins
MAX_CROWD = 7  # a glyph with more neighbours than this (within 1.5 sizes) is texture, not an index
MAX_PIPS = 3  # a glyph is paired with its nearest few pip-like blobs at most
# a glyph blob this small (px) at a strict level may be part of its glyph: on a card under about 90
# px wide a rank's thin strokes blur paler than the strict level, and its blob is the glyph's bowl
# alone (a "6" without its stem), so its pip lies up to PART_REACH blob sizes off, not the 1.6 of a
# whole glyph (at the looser levels the strokes are ink: there it would only pair more texture)
PART_GLYPH, PART_REACH = 12, 2.5
MAX_LATTICE = 14  # nor one with more blobs of its own size than this within 3 sizes (a card back)
SMALL_GLYPH = 10  # glyphs up to this size (px) are looked for again at twice the size
SECOND_LOOK_MAX = SMALL_GLYPH + 2  # px: the biggest glyph the second look keeps (the first has bigger)
TILE = 64  # px: the grid for the second look
TILE_MARGIN = 24  # px looked at round the cells chosen
MAX_TILED = 0.15  # at most this fraction of the image is looked at twice
TILE_LEVELS = 1  # the second look uses the first this many levels
COARSE_MIN = 900  # px: a photo this big (short side) may hold glyphs too big to pair: halve it
# px: glyphs this big are taken from a halving, even where the full size found them too: there the
# paper level's window is smaller than the glyph, and its blobs are parts (a held-out deck's ace of
# spades scanned 1100 px wide was read as a club, 0.89, from the full size's window)
BIG_GLYPH = 60
MAX_GLYPH = 140  # px: bigger blobs are not paired at this size (a halving finds them)
MAX_SMALL_PER_TILE = 12  # a small card puts a dozen tiny blobs in a tile at most
# an index lies on a card's paper (:func:`paper_gap`). Clear paper, at the half-size darkness map: a
# 3x3 square all brighter than PAPER_CLEAR against its local paper level and lit; or, on a grainy
# photo (its grain, how much its EVEN_FROM percent brightest places differ from the next pixel
# against their level, at least GRAINY: a clean photo's is at most 0.01, with noise of sigma 12
# 0.016 or more), a 5x5 square brighter on average than PAPER_BRIGHT whose spread is under
# PAPER_EVEN times that grain, EVEN_MAX at most (a weave's is more). A blob
# counts only within PAPER_REACH = (glyph sizes, px) of clear paper; and ink is looked for only
# within PAPER_NEAR px of it (half the biggest glyph paired at full size, and a little: no pixel of
# a glyph or pip that size is further from the paper round it; bigger ones are found on halvings).
# A cloth's weave, whose bright threads pass for paper, has no clear paper: a real frame beside a
# pair of jeans offered 583 candidates there (135 px or more from clear paper, 15 glyph sizes), and
# took 125 ms. Every index read in 3,276 (real photos, held-out scenes) lay within 28 px of clear
# paper, at most 2.7 glyph sizes (a 6-px glyph); readings change first with PAPER_NEAR at 32 px. The
# grainy branch keeps a dim card under heavy noise (a real photo with noise of sigma 25 at 0.4 of
# its size: no 3x3 square of its paper is clear, its 5x5 spread is 0.074 of its level)
# and a card's paper is near grey once the photo is balanced on its own white (:func:`photo_white`:
# a lamp the camera has not balanced leaves paper orange): saturated ((max - min) / max of its
# channels) no more than PAPER_GREY. The 2,739 indices read in the held-out scenes and the
# real photos have paper round them at 0.36 at most (the 10th percentile of the bright pixels round
# each; tinted lights), 0.28 for 99 in 100 of them; a pink gingham's pale checks are 0.58 or more,
# and without this they passed for paper: 300 candidates on a frame of small cards, most of them
# the cloth's dark checks anywhere on the table, 150 with it
PAPER_GREY = 0.5
# the photo's white (vision.index.photo_white): its WHITE_TOP percent brightest places in their
# darkest channel
WHITE_TOP = 1.0
PAPER_CLEAR = 160
PAPER_BRIGHT = 120
PAPER_EVEN, EVEN_FROM, EVEN_MAX, GRAINY = 3.0, 5.0, 0.1, 0.012
PAPER_REACH = (2.0, 24.0)
PAPER_NEAR = MAX_GLYPH // 2 + 8
GAP_SCALE = 4  # paper_gap's map is this many times smaller than the photo


@dataclass
class Candidate:
    """A possible corner index: where its glyph and pip are, which way is down, glyph size."""

    center: tuple[float, float]
    down: tuple[float, float]
    size: float
    rank_pos: tuple[float, float]
    suit_pos: tuple[float, float]
    labels: tuple[int, ...]  # ink components used (unique across levels)
    crowd: int = 0  # blobs of glyph size close round the glyph (an index stands in paper: few)
    guessed: bool = False  # glyph and pip placed from the shape of one blob (:func:`_whole_indices`)


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
    if min(h, w) >= 4 * LOCAL:
        half = LOCAL // 2 | 1
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (half, half))
        small = cv2.resize(bgr, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA)
        level = cv2.blur(cv2.dilate(small, kernel), (half, half))  # the paper level at half size
        paper3 = cv2.resize(level, (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (LOCAL, LOCAL))
        level = paper3 = cv2.blur(cv2.dilate(bgr, kernel), (LOCAL, LOCAL))
    rel = cv2.divide(bgr, paper3, scale=200.0)
    b, g, r = cv2.split(rel)
    v = cv2.min(cv2.min(b, g), r)
    # ink is also darker than the paper right beside it: near a glare or a bright window the wide
    # window's paper level is the glare's, and the card's own paper would count as ink
    near = cv2.dilate(bgr, cv2.getStructuringElement(cv2.MORPH_RECT, (NEAR, NEAR)))
    nb, ng, nr = cv2.split(cv2.divide(bgr, near, scale=200.0))
    v = cv2.max(v, cv2.min(cv2.min(nb, ng), nr))
    # paper is bright in every channel (white under any light), so a saturated felt is not paper
    # even where its own darkest channel happens to be noisy; and not much darker than the brightest
    # (though a backlit card's grey paper can be a quarter as bright as the window behind it)
    # (decided on the paper level as estimated, at half size: it is smooth)
    pb, pg, pr = cv2.split(level)
    low = cv2.min(cv2.min(pb, pg), pr)
    step = 4 * low.shape[0] // h
    bright = float(np.percentile(low[::step, ::step], 99.5))
    floor = BLACK * min(1.0, bright / EXPOSED)  # black is darker still in a photo taken in the dark
    lit = cv2.compare(low, max(floor, DIM_PAPER * bright), cv2.CMP_GT)
    # dimmer still, if it is grey (paper under a cast, not a coloured cloth)
    high = cv2.max(cv2.max(pb, pg), pr)
    grey = cv2.compare(low, cv2.multiply(high, GREY_PAPER), cv2.CMP_GE)
    dimmer = cv2.compare(low, max(floor, DIMMEST_PAPER * bright), cv2.CMP_GT)
    lit = cv2.bitwise_or(lit, cv2.bitwise_and(dimmer, grey))
    # and a paper level that is near grey (:func:`grey_level`): a coloured cloth's dark threads
    # beside a card are not ink on paper
    lit = cv2.bitwise_and(lit, _sized(grey_level(level), lit.shape))
    if lit.shape != v.shape:
        lit = cv2.resize(lit, (w, h), interpolation=cv2.INTER_NEAREST)
    return v, lit


# count, stats, centroids (as OpenCV gives them), whether each blob holds a core (is solid), and the
# label image
Components = tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
# a photo's distance to clear paper (:func:`paper_gap`) and how many of the photo's pixels one pixel
# of the map being searched is
Gap = tuple[np.ndarray, float]


def ink_components(v: np.ndarray, lit: np.ndarray, level: Level) -> Components:
    """Ink at one darkness level, as connected components (count, stats, centroids, as OpenCV
    gives them, which are solid, and the label image): blobs darker than ``level[0]`` holding a
    core darker than ``level[1]`` (solid) or, faint, only one darker than ``level[3]``, eroded by a
    ``level[2]`` square; blobs with neither are given zero area.

    >>> import numpy as np
    >>> v = np.full((40, 40), 200, np.uint8); v[5:15, 5:9] = 40; v[25:30, 25:30] = 110
    >>> n, stats, _, solid, _ = ink_components(v, np.full_like(v, 255), (116, 90, 1, 90))
    >>> n, sorted(int(a) for a in stats[1:, 4]), solid[1:].tolist()
    (3, [0, 40], [True, False])
    >>> int(ink_components(v, np.full_like(v, 255), (116, 90, 1, 112))[1][2, 4])  # faint, not solid: kept
    25
    >>> v[15:25, 6] = 130  # a blurred bridge of one pixel joins the two blobs...
    >>> v[25, 6:25] = 130
    >>> ink_components(v, np.full_like(v, 255), (150, 120, 1, 120))[0]
    2
    >>> ink_components(v, np.full_like(v, 255), (150, 120, 3, 120))[0]  # ...a thinned mask splits them
    3
    """
    ink = cv2.bitwise_and(cv2.compare(v, level[0], cv2.CMP_LT), lit)
    if level[2] > 1:
        ink = cv2.erode(ink, np.ones((level[2], level[2]), np.uint8))
    n, labels, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_GRANA)
    faint = max(level[1], level[3])
    sel = cv2.compare(v, faint, cv2.CMP_LT) > 0
    sel &= labels > 0
    lab = labels[sel]
    has_core = np.bincount(lab, minlength=n) > 0
    solid = has_core if faint == level[1] else np.bincount(lab[v[sel] < level[1]], minlength=n) > 0
    stats[~has_core, 4] = 0
    return n, stats, cents, solid, labels


@dataclass
class Notes:
    """What a first look saw that asks for another: tiny paper-ringed blobs left unpaired (glyphs
    too small to pair at this size), and blobs the shape of a whole small index (see
    :func:`look_unread`): the label image of their level, their labels, stats and centroids."""

    small: list[np.ndarray]
    whole: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None


def _pairs(comps: Components, paper: np.ndarray, integral: np.ndarray, tag: int,
           max_components: int, notes: Notes | None = None, inner: bool = False,
           whole: Notes | None = None, gap: Gap | None = None, part: float = 0.0) -> list[Candidate]:
    """Glyph/pip pairs among the ink components of one level; ``notes`` takes its tiny blobs (for
    :func:`look_again`), ``whole`` its blobs that may be a whole index (for :func:`look_unread`);
    with ``gap``, only blobs near clear paper count (:func:`_near_paper`). ``part``: glyph blobs
    up to this size (px of this map) may be part of their glyph (:data:`PART_GLYPH`)."""
    n, stats, cents, solid, labels = comps
    if n <= 1:
        return []
    w = stats[1:, 2].astype(np.float32)
    h = stats[1:, 3].astype(np.float32)
    area = stats[1:, 4].astype(np.float32)
    size = np.maximum(w, h)
    fill = area / (w * h)
    ok = (size >= 4) & (area >= 6) & (fill > 0.12) & (fill < 0.97)
    ok &= (np.maximum(w, h) / np.maximum(1, np.minimum(w, h))) < 7
    if inner:  # a cut-out: a blob its edge cuts is not its true shape, and the whole photo had it
        x, y = stats[1:, 0], stats[1:, 1]
        ok &= (x > 0) & (y > 0) & (x + w < paper.shape[1]) & (y + h < paper.shape[0])
    idx = np.nonzero(ok)[0]
    if gap is not None and len(idx):
        idx = idx[_near_paper(gap, cents[1:][idx], size[idx])]
    if len(idx) == 0:
        return []
    # ink on a card is ringed by paper; the shadowed table beside a card is not
    ih, iw = paper.shape
    bx, by = stats[1:][idx, 0], stats[1:][idx, 1]
    bw, bh = stats[1:][idx, 2], stats[1:][idx, 3]
    m = np.maximum(2, (np.maximum(bw, bh) // 8))
    x0, y0 = np.clip(bx - m, 0, iw), np.clip(by - m, 0, ih)
    x1, y1 = np.clip(bx + bw + m, 0, iw), np.clip(by + bh + m, 0, ih)
    outer = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    inner = (integral[by + bh, bx + bw] - integral[by, bx + bw] - integral[by + bh, bx]
             + integral[by, bx])
    ringed = (outer - inner) / np.maximum((x1 - x0) * (y1 - y0) - bw * bh, 1)
    if whole is not None:
        one = idx[(ringed > WHOLE_RING) & solid[1:][idx]
                  & (size[idx] >= WHOLE_SIZE[0]) & (size[idx] <= WHOLE_SIZE[1])
                  & (fill[idx] > WHOLE_FILL[0]) & (fill[idx] < WHOLE_FILL[1])]
        whole.whole = (labels, one + 1, stats[1:][one], cents[1:][one])
    idx = idx[ringed > 0.5]
    idx = idx[size[idx] <= MAX_GLYPH]
    # a faint blob can only be a rank glyph (6 px at least); where hundreds of them are about, they
    # are a cloth's weave, and faint print cannot be told from it: then only solid ink counts
    faint = ~solid[1:][idx] & (size[idx] >= 6)
    if faint.sum() > MAX_FAINT:
        faint[:] = False
    idx = idx[solid[1:][idx] | faint]
    if len(idx) == 0:
        return []
    if len(idx) > max_components:
        idx = idx[np.argsort(-area[idx])[:max_components]]
    out = _match(cents[1:][idx].astype(np.float32), size[idx], stats[1:][idx], solid[1:][idx], idx, tag, part)
    if notes is not None:
        tiny = (size[idx] >= 3) & (size[idx] <= SMALL_GLYPH) & solid[1:][idx]
        # (tiny blobs already paired count too: at this size they often pair wrong)
        t = np.nonzero(tiny)[0]
        if len(t):
            # only tiny blobs with a partner where a glyph's pip would be (a speck alone is dust)
            ct, st = cents[1:][idx[t]], size[idx[t]].astype(np.float32)
            small_all = idx[size[idx] <= 2 * SMALL_GLYPH]
            ca = cents[1:][small_all]
            gap = np.hypot(ct[:, None, 0] - ca[None, :, 0], ct[:, None, 1] - ca[None, :, 1])
            near = (gap > 0.5 * st[:, None]) & (gap < 1.6 * st[:, None] + 2)
            notes.small.append(ct[near.any(axis=1)])
    return out


def _match(c: np.ndarray, s: np.ndarray, st: np.ndarray, solid: np.ndarray, idx: np.ndarray,
           tag: int, part: float = 0.0) -> list[Candidate]:
    """Pair glyphs (centres ``c``, sizes ``s``, OpenCV stats ``st``) with solid pips below them; a
    glyph up to ``part`` px (:data:`PART_GLYPH` in this map's pixels, at a strict level) with one up
    to ``PART_REACH`` of its sizes off.

    Everything asked of two blobs here holds only within 3 glyph sizes (the lattice test is the
    widest), so only those pairs are looked at (:func:`close_pairs`), not every pair of the frame's
    hundreds of blobs.

    >>> import numpy as np
    >>> c = np.array([[20, 20], [20, 34], [60, 20]], np.float32)  # a glyph, the pip below it, a speck
    >>> s = np.array([10, 9, 4], np.float32)
    >>> st = np.array([[15, 15, 8, 10, 50], [16, 30, 9, 8, 55], [58, 18, 4, 4, 12]])
    >>> [(k.rank_pos, k.suit_pos) for k in _match(c, s, st, np.ones(3, bool), np.arange(3), 0)]  # each way
    [((20.0, 20.0), (20.0, 34.0)), ((20.0, 34.0), (20.0, 20.0))]
    >>> c = np.array([[16, 20], [25, 20], [20.5, 34]], np.float32)  # a "10": its two digits, the pip
    >>> s = np.array([10, 10, 9], np.float32)
    >>> st = np.array([[14, 15, 4, 10, 30], [21, 15, 8, 10, 50], [16, 30, 9, 8, 55]])
    >>> ten = [k for k in _match(c, s, st, np.ones(3, bool), np.arange(3), 0) if len(k.labels) == 3]
    >>> [(k.rank_pos, k.down) for k in ten]  # down from the digits' middle, not from the "1"
    [((20.5, 20.0), (0.0, 1.0)), ((20.5, 20.0), (0.0, 1.0))]
    """
    i, j = close_pairs(c[:, 0], c[:, 0], 3 * s)
    dx = c[j, 0] - c[i, 0]  # from blob i to blob j
    dy = c[j, 1] - c[i, 1]
    dist = np.hypot(dx, dy)
    within = dist < 3 * s[i]
    i, j, dx, dy, dist = i[within], j[within], dx[within], dy[within], dist[within]
    ratio = s[j] / s[i]
    pair = (dist > 0.65 * s[i]) & (dist < np.where(s[i] <= part, PART_REACH, 1.6) * s[i])
    pair &= (ratio > 0.4) & (ratio < 1.4)
    pair &= s[i] >= 6  # a rank glyph is at least 6 px
    pair &= solid[j]  # and its pip is solid (a faint blob may be a glyph, not a pip)
    # two of the same pip in a card's body are not a rank over a pip: same box, same ink
    bw, bh, area = st[:, 2].astype(np.float32), st[:, 3].astype(np.float32), st[:, 4].astype(np.float32)
    twin = ((np.abs(bw[i] - bw[j]) <= 1) & (np.abs(bh[i] - bh[j]) <= 1)
            & (np.abs(area[i] - area[j]) <= TWIN_AREA * area[i]))
    pair &= ~twin
    if not pair.any():
        return []
    # a corner index stands in paper: its glyph has a few neighbours (pip, the other digit of a
    # "10", the next card's index in a row), never the crowd of a card back's lattice or of grain
    # (each blob counts itself once, hence the - 1)
    crowd = np.bincount(i, (dist < 1.5 * s[i]) & (ratio > 0.3), len(s)).astype(np.int64) - 1
    lattice = np.bincount(i, (ratio > 0.6) & (ratio < 1.7), len(s)).astype(np.int64) - 1
    pair &= (crowd[i] <= MAX_CROWD) & (lattice[i] <= MAX_LATTICE)
    # a glyph's own pip is among its nearest partners: in a tight row the next cards' pips are
    # further off, diagonally; keep the nearest few only
    ii, jj, d = i[pair], j[pair], dist[pair]
    per = np.bincount(ii, minlength=len(s))
    if (per > MAX_PIPS).any():
        by = np.lexsort((d, ii))  # each glyph's partners, nearest first
        first = np.cumsum(per) - per  # where each glyph's partners start in that order
        cut = np.full(len(s), np.inf, np.float32)
        many = np.nonzero(per > MAX_PIPS)[0]
        cut[many] = d[by[first[many] + MAX_PIPS - 1]]
        keep = d <= cut[ii]
        ii, jj = ii[keep], jj[keep]
    if len(ii) > MAX_PAIRS:
        order = np.lexsort((-s[ii], crowd[ii]))[:MAX_PAIRS]
        ii, jj = ii[order], jj[order]
    if len(ii) == 0:
        return []
    # all pairs at once: down = glyph → pip; a side-by-side neighbour of the glyph (across the down
    # vector, about as tall, not the pip) joins it as the other digit of a "10" (the neighbours
    # looked at: the glyph's blobs within 3 sizes, as above, in order)
    gx, gy = c[jj, 0] - c[ii, 0], c[jj, 1] - c[ii, 1]
    down = np.stack([gx, gy], axis=1) / np.hypot(gx, gy)[:, None]
    start = np.searchsorted(i, ii, side="left")
    count = np.searchsorted(i, ii, side="right") - start
    q = np.repeat(np.arange(len(ii)), count)  # (pair, neighbour) rows
    k = j[np.repeat(start - (np.cumsum(count) - count), count) + np.arange(int(count.sum()))]
    rel = c[k] - c[ii[q]]
    along = rel[:, 0] * down[q, 0] + rel[:, 1] * down[q, 1]
    across = -rel[:, 0] * down[q, 1] + rel[:, 1] * down[q, 0]
    si = s[ii[q]]
    near = ((np.abs(along) < 0.3 * si) & (np.abs(across) < 1.2 * si) & (np.abs(across) > 0.2 * si)
            & (s[k] > 0.6 * si) & (s[k] < 1.5 * si) & (k != jj[q]))
    has = np.zeros(len(ii), bool)
    has[q[near]] = True
    other = np.zeros(len(ii), np.int64)
    first_near = np.nonzero(near)[0]
    # the first (lowest-numbered) such neighbour of each pair: rows are in order of neighbour
    first_near = first_near[np.unique(q[first_near], return_index=True)[1]]
    other[q[first_near]] = k[first_near]
    # a glyph beside the glyph may also be the next card's, a card-width step along a tight row:
    # then the pair is offered alone too, and the network reads whichever is an index
    both = np.nonzero(has)[0]
    ii, jj, other = (np.concatenate([a, a[both]]) for a in (ii, jj, other))
    down = np.concatenate([down, down[both]])
    has = np.concatenate([has, np.zeros(len(both), bool)])
    gc = np.where(has[:, None], (c[ii] + c[other]) / 2, c[ii])
    # the pip must sit below the glyph (group) centre, not off to one side
    rel_p = c[jj] - gc
    side = np.abs(-rel_p[:, 0] * down[:, 1] + rel_p[:, 1] * down[:, 0])
    ok_pair = side <= 0.6 * s[ii] * (1 + has)
    # a "10"'s down runs from the middle of its two digits to the pip, not from the digit paired
    # first (that leans by up to 20 degrees, and the card's two indices then do not lie as a card's)
    down = np.where(has[:, None], rel_p / np.maximum(np.hypot(rel_p[:, 0], rel_p[:, 1]), 1e-6)[:, None], down)
    out: list[Candidate] = []
    for n in np.nonzero(ok_pair)[0].tolist():
        i, j = int(ii[n]), int(jj[n])
        group = [i, int(other[n])] if has[n] else [i]
        g = gc[n]
        out.append(Candidate(
            (float((g[0] + c[j][0]) / 2), float((g[1] + c[j][1]) / 2)),
            (float(down[n, 0]), float(down[n, 1])),
            float(s[i]),
            (float(g[0]), float(g[1])),
            (float(c[j][0]), float(c[j][1])),
            tuple(tag + int(idx[k]) + 1 for k in [*group, j]),
            int(crowd[i]),
        ))
    return out


@dataclass
class Look:
    """A first look at a photo (:func:`first_look`): its candidates, its darkness map
    (:func:`relative_darkness`), its distance to clear paper (:func:`paper_gap`), and the centres of
    tiny glyph-like blobs left over, which ask for a second look (:func:`look_again`)."""

    found: list[Candidate]
    dark: tuple[np.ndarray, np.ndarray]
    gap: np.ndarray  # quarter-size px
    small: np.ndarray  # (N, 2) x, y
    whole: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None  # Notes.whole
    bgr: np.ndarray | None = None  # the photo
    grey: np.ndarray | None = None  # where the photo is grey enough to be paper (:func:`grey_paper`)


def grey_paper(bgr: np.ndarray) -> np.ndarray:
    """Where the photo, at half size (a quarter of the work), is grey enough to be a card's paper:
    saturated ((max - min) / max of its channels) no more than ``PAPER_GREY`` (255 there, else 0),
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
    """Where a paper level (:func:`relative_darkness`'s, BGR) is near grey, as a card's paper is
    under any light once balanced on the photo's white: 255 there, else 0, at half the level's
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
    ``PAPER_GREY`` (255 there, else 0)."""
    bal = cv2.multiply(bgr, (*(float(v) for v in white.max() / white), 0.0), dtype=cv2.CV_8U)
    b, g, r = cv2.split(bal)
    hi, lo = cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)
    return cv2.compare(cv2.subtract(hi, lo), cv2.multiply(hi, PAPER_GREY, dtype=cv2.CV_8U), cv2.CMP_LE)


def photo_white(bgr: np.ndarray) -> np.ndarray:
    """The colour of the photo's white (B, G, R): the mean of its places brightest in their darkest
    channel (the top ``WHITE_TOP`` percent), which are a card's paper wherever a card lies. Under a
    warm lamp the camera has not balanced, paper is orange, and this is that orange.

    >>> import numpy as np
    >>> img = np.full((20, 20, 3), (60, 120, 40), np.uint8); img[5:15, 5:15] = (130, 190, 240)
    >>> photo_white(img).round().tolist()  # a card under a warm lamp on green felt
    [130.0, 190.0, 240.0]
    """
    px = np.ascontiguousarray(bgr[::2, ::2])
    b, g, r = cv2.split(px)
    low = cv2.min(cv2.min(b, g), r)
    # the level above which WHITE_TOP percent of the places are (from the top of their histogram)
    counts = np.bincount(low.ravel(), minlength=256)[::-1].cumsum()
    level = 255 - int(np.searchsorted(counts, max(1.0, low.size * WHITE_TOP / 100)))
    white = cv2.mean(px, cv2.compare(low, level, cv2.CMP_GE))[:3]
    return np.maximum(np.array(white), 1.0)


def _sized(mask: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray | None:
    """A mask resized (nearest) to an image of ``shape``, if it is not that size already."""
    if mask is None or mask.shape[:2] == shape[:2]:
        return mask
    return cv2.resize(mask, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)


def paper_gap(dark: tuple[np.ndarray, np.ndarray], grey: np.ndarray | None = None) -> np.ndarray:
    """How far (in pixels of a quarter-size map) each place is from clear paper: at the half-size
    darkness map, a 3x3 square (6x6 of the photo) all brighter than ``PAPER_CLEAR`` and lit; or,
    where noise leaves no such square, a 5x5 one bright and about as even as the photo's brightest
    places are (``PAPER_EVEN``). With ``grey`` (:func:`grey_paper`), paper is also near grey:
    saturated no more than ``PAPER_GREY``. A card shows clear paper round its indices even in a tight row; a
    cloth's weave, whose bright threads may pass for paper, does not, nor does a coloured cloth's
    pale check.

    >>> import numpy as np
    >>> img = np.full((200, 200, 3), 230, np.uint8)
    >>> img[:, 100:] = np.random.default_rng(0).integers(0, 2, (200, 100, 1)) * 200 + 20  # a weave
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
        lit = cv2.bitwise_and(lit, _sized(grey, half.shape))
    sharp = cv2.bitwise_and(cv2.compare(half, PAPER_CLEAR, cv2.CMP_GT), lit)
    sharp = cv2.erode(sharp, np.ones((3, 3), np.uint8))
    # or even: on a dim, grainy photo no 3x3 square of paper is all that bright. Its grain: how much
    # the brightest places differ from the next pixel (a sample of them), against their level
    m, right = half[::2, :-1:2].ravel(), half[::2, 1::2].ravel()
    k = min(len(m) - 1, int(len(m) * (1 - EVEN_FROM / 100)))
    top = m >= np.partition(m, k)[k]
    level = max(float(np.median(m[top])), 1.0)
    grain = float(np.median(np.abs(m[top].astype(np.float32) - right[top]))) / level
    clear = sharp
    if grain >= GRAINY:  # (a clean photo's paper has clear squares enough)
        hf = half.astype(np.float32)
        mean = cv2.blur(hf, (5, 5))
        spread = cv2.sqrt(cv2.max(cv2.sqrBoxFilter(hf, cv2.CV_32F, (5, 5)) - cv2.multiply(mean, mean), 0))
        even = cv2.compare(spread, mean * min(PAPER_EVEN * grain, EVEN_MAX), cv2.CMP_LT)
        even = cv2.bitwise_and(cv2.bitwise_and(even, cv2.compare(mean, PAPER_BRIGHT, cv2.CMP_GT)), lit)
        clear = cv2.bitwise_or(sharp, even)
    # the distances taken at quarter size (a quarter of the work): a place there is clear if any of
    # its four is
    size4 = ((size[0] + 1) // 2, (size[1] + 1) // 2)
    clear = cv2.resize(clear, size4, interpolation=cv2.INTER_AREA)
    far = cv2.distanceTransform(cv2.compare(clear, 0, cv2.CMP_EQ), cv2.DIST_L1, 3)
    return np.minimum(far, 1e6)  # (no clear paper at all: every place is far)


def _near_paper(gap: Gap, centres: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Which blobs or candidates (``centres`` (N, 2) and glyph ``sizes`` in pixels of a map that many
    of the photo's, ``gap[1]``) lie within ``PAPER_REACH`` of clear paper (``gap[0]``: :func:`paper_gap`).

    >>> import numpy as np
    >>> gap = np.zeros((50, 50), np.float32); gap[:, 25:] = np.arange(1, 26)  # paper, then not
    >>> centres = np.array([[10.0, 10], [110, 10], [190, 10]])  # photo px; 12 and 92 px from paper
    >>> _near_paper((gap, 1.0), centres, np.array([10.0, 10, 10])).tolist()
    [True, True, False]
    """
    g, f = gap
    at = np.asarray(centres, np.float64).reshape(-1, 2) * (f / GAP_SCALE)
    x = np.clip(at[:, 0].astype(np.int64), 0, g.shape[1] - 1)
    y = np.clip(at[:, 1].astype(np.int64), 0, g.shape[0] - 1)
    reach = PAPER_REACH[0] * f * np.asarray(sizes, np.float64) + PAPER_REACH[1]
    return GAP_SCALE * g[y, x].astype(np.float64) <= reach


def find_indices(bgr: np.ndarray, max_components: int = 1500,
                 levels: tuple[Level, ...] = LEVELS, second_look: bool = True) -> list[Candidate]:
    """Every plausible (rank glyph, pip) pair in the image, once: :func:`first_look`, and with
    ``second_look`` :func:`look_again` everywhere it asks for."""
    look = first_look(bgr, max_components, levels)
    if not second_look:
        return look.found
    return look.found + look_again(look, max_components, levels)


def first_look(bgr: np.ndarray, max_components: int = 1500, levels: tuple[Level, ...] = LEVELS) -> Look:
    """Every plausible (rank glyph, pip) pair at the photo's own size, once (a pair found at two
    darkness levels is kept from the stricter one). Halvings of the photo are searched too, for
    glyphs too big for the paper estimate's window (close-ups, tight crops)."""
    notes = Notes([])
    dark = relative_darkness(bgr)
    half_grey = grey_paper(bgr)
    gap = paper_gap(dark, half_grey)
    near = cv2.resize(cv2.compare(gap, PAPER_NEAR / GAP_SCALE, cv2.CMP_LE), dark[1].shape[::-1],
                      interpolation=cv2.INTER_NEAREST)
    dark = (dark[0], cv2.bitwise_and(dark[1], near))  # ink far from any paper is no card's
    grey = _sized(half_grey, dark[0].shape)
    out = _find(dark, max_components, levels, 0, notes, gap=(gap, 1.0), grey=grey)
    # big glyphs (a close-up or a tight crop of one card) are looked for on halvings of the photo
    img, k = bgr, 0
    halving_levels = tuple(dict.fromkeys((*levels, THIN)))
    while min(img.shape[:2]) >= COARSE_MIN and k < 2:
        img, k = cv2.pyrDown(img), k + 1
        f = 2.0**k
        found = _find(relative_darkness(img), max_components, halving_levels, 1000 * k, None, gap=(gap, f),
                      grey=_sized(half_grey, img.shape))
        back = [_scaled_up(c, f) for c in found if c.size * f > BIG_GLYPH]
        if back:  # a big glyph is taken from the halving, though the full size found it too
            out = _fresh(out, back) + back
    return Look(_least_crowded(out), dark, gap,
                np.concatenate(notes.small) if notes.small else np.zeros((0, 2)), notes.whole, bgr, grey)


def look_again(look: Look, max_components: int = 1500, levels: tuple[Level, ...] = LEVELS,
               explained: Sequence[np.ndarray] = ()) -> list[Candidate]:
    """The second look: places holding tiny glyphs (small cards) enlarged twice and looked at
    again; the candidates found there that the first look did not have. ``explained``: outlines
    (polygons) of cards already read at a bigger size, whose tiny blobs are their own print (a face
    card's picture), not small cards.

    >>> import numpy as np
    >>> look_again(first_look(np.full((120, 160, 3), 200, np.uint8)))
    []
    """
    small = _outside(look.small, explained)
    v, lit = look.dark
    out: list[Candidate] = []
    for t, (x0, y0, x1, y1) in enumerate(_small_tiles(v.shape[:2], small), 1):
        # the darkness map enlarged, rather than the photo: the paper level is smooth anyway
        crop = (cv2.resize(v[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR),
                cv2.resize(lit[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
        grey = None if look.grey is None else _sized(look.grey[y0:y1, x0:x1], crop[0].shape)
        found = [Candidate(_half(c.center, x0, y0), c.down, c.size / 2, _half(c.rank_pos, x0, y0),
                           _half(c.suit_pos, x0, y0), c.labels, c.crowd)
                 for c in _find(crop, max_components, levels[:TILE_LEVELS], t * len(levels), None, inner=True,
                                px=0.5, grey=grey)
                 if c.size <= 2 * SECOND_LOOK_MAX]  # a bigger glyph: the first look had it
        if found:
            out += _fresh(found, look.found + out)
    if out:  # a tile enlarged is not the photo: its blobs are judged here
        near = _near_paper((look.gap, 1.0), np.array([c.center for c in out]),
                           np.array([c.size for c in out]))
        out = [c for c, n in zip(out, near, strict=True) if n]
    return _least_crowded(out)


def look_unread(look: Look, explained: Sequence[np.ndarray] = (),
                read_at: Sequence[tuple[float, float]] = (), max_components: int = 1500,
                pale: bool = True) -> list[Candidate]:
    """The strictest, the thinned and the faintest darkness levels (``STRICT``, ``THIN``,
    ``FAINT``), outside the outlines of cards already read (``explained``): their candidates the
    first look did not have; and small indices that are one blob (:func:`_whole_indices`), away
    from the glyphs read (``read_at``).

    A glyph that touches a paler line (the card's own edge, the shadow of a card lying over it, a
    court card's frame, a neighbour's edge in a tight row) is one blob with it at the usual levels,
    too big and thin to pair; darker than the line, it stands alone at the strictest; joined to it
    by blur's pixel or two, it stands alone once the loose level is thinned. A small rank
    drawn in thin strokes (a fanned hand's pale red "9") can blur paler than the loose level while
    its solid pip stays dark; the faintest level (taken at half size) holds it. Looking only where
    no card was read keeps this work (and the network's) off frames whose cards are all read already.
    With ``pale`` (the caller has read no card at all), the palest level (``PALE``) too: a card under
    a veil of glare.

    >>> import numpy as np
    >>> img = np.full((140, 100, 3), 235, np.uint8)
    >>> _ = cv2.putText(img, "7", (30, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (20, 20, 20), 3)
    >>> _ = cv2.circle(img, (44, 72), 8, (20, 20, 20), -1)  # the pip below the glyph
    >>> img[10:100, 20:27] = 110  # a paler line (a card's edge) touching the glyph
    >>> img[36:42, 20:40] = 110
    >>> look = first_look(img)
    >>> len(look.found), len(look_unread(look))
    (0, 1)
    >>> card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    >>> look_unread(look, [card])  # a card read there already explains its ink
    []
    >>> look_unread(look, [card, card + 0.5])  # and so do two outlines round it
    []
    >>> img = np.full((140, 100, 3), 235, np.uint8)  # a pale thin "4" over a dark pip
    >>> _ = cv2.putText(img, "4", (30, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (175, 175, 175), 2)
    >>> _ = cv2.circle(img, (42, 70), 8, (20, 20, 20), -1)
    >>> look = first_look(img)
    >>> len(look.found), len(look_unread(look))
    (0, 1)
    """
    v, lit = look.dark
    if len(explained):
        lit = lit.copy()
        for q in explained:  # one by one: fillPoly fills where outlines overlap an even number of times
            cv2.fillConvexPoly(lit, np.round(q).reshape(-1, 1, 2).astype(np.int32), 0)
    gap = (look.gap, 1.0)
    found = _find((v, lit), max_components, (STRICT,), UNREAD_TAG, None, gap=gap, grey=look.grey)
    found += _fresh(_find((v, lit), max_components, (THIN,), UNREAD_TAG + 3, None, gap=gap, grey=look.grey),
                    found)
    # the faintest level on the half-size map: a quarter of the work (on a textured table half the
    # photo can be that faint), and a blurred rank is still a rank at half size
    h, w = v.shape
    half = (cv2.resize(v, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA),
            cv2.resize(lit, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_NEAREST))
    notes = Notes([])
    gap2 = (look.gap, 2.0)
    grey = _sized(look.grey, half[0].shape)
    faint = [_scaled_up(c, 2) for c in _find(half, max_components, (FAINT,), UNREAD_TAG + 1, None,
                                             whole_from=notes, whole_level=0, gap=gap2, grey=grey)]
    found += _fresh(faint, found)
    if pale:  # nothing read yet: print as pale as a veil of glare leaves it (half size too)
        pale = _find(half, max_components, (PALE,), UNREAD_TAG + 4, None, gap=gap2, grey=grey)
        found += _fresh([_scaled_up(c, 2) for c in pale], found)
    # small indices that are one blob: at the loose level, and (a paler, blurred rank) at the faintest
    whole = _whole_indices(look, explained, read_at)
    whole += _fresh(_whole_indices(look, explained, read_at, notes.whole, 2.0), whole)
    return _least_crowded(_fresh(found + _fresh(whole, found), look.found))


def _whole_indices(look: Look, explained: Sequence[np.ndarray] = (),
                   read_at: Sequence[tuple[float, float]] = (),
                   blobs: tuple[np.ndarray, ...] | None = None, f: float = 1.0) -> list[Candidate]:
    """Candidates for small indices whose glyph and pip are one blob at the loose level (a pale
    rank blurred onto its pip: at the strict level the rank is gone, at the loose one it touches the
    pip), outside the outlines ``explained`` and not a glyph read already (``read_at``: a card whose
    outline was not found). Such a blob is longer than wide, along the index: the
    glyph is placed in its first half and the pip in its second, both ways round (the network
    reads the one that is upright; these readings need ``GUESSED_MIN``, see :mod:`vision.reader`).
    ``blobs``: such blobs of another level (``Notes.whole``) taken on a map ``f`` times smaller
    than the photo (the first look's loose level by default).

    >>> import numpy as np
    >>> img = np.full((120, 120, 3), 235, np.uint8)
    >>> img[40:50, 55:63] = 40; img[50:56, 57:61] = 40  # a glyph on its pip: one blob, 16 px long
    >>> [(round(c.rank_pos[1]), round(c.suit_pos[1]), c.guessed) for c in _whole_indices(first_look(img))]
    [(44, 52, True), (51, 43, True)]
    >>> card = np.float32([[30, 20], [90, 20], [90, 100], [30, 100]])
    >>> _whole_indices(first_look(img), [card]), _whole_indices(first_look(img), (), [(58.5, 47.0)])  # read
    ([], [])
    """
    blobs = look.whole if blobs is None else blobs
    if blobs is None or not len(blobs[1]):
        return []
    labels, which, stats, cents = blobs
    seen = np.stack(_up(cents.T, f), axis=1)  # the centres in the photo
    keep = np.nonzero(~inside_all(explained, seen.tolist()).any(axis=0))[0]
    if not len(keep) or len(keep) > MAX_WHOLE:  # none, or a texture's blobs rather than a few indices
        return []
    if len(read_at):
        at = np.asarray(read_at, np.float64).reshape(-1, 2)
        gap = np.hypot(*(seen[keep, None, :] - at[None, :, :]).transpose(2, 0, 1))
        keep = keep[(gap >= 0.5 * f * stats[keep, 2:4].max(axis=1)[:, None]).all(axis=1)]
    # an index stands in paper: few blobs of its kind close by (a cloth's stripes are many)
    gap = np.hypot(*(cents[keep, None, :] - cents[None, :, :]).transpose(2, 0, 1))
    reach = WHOLE_REACH * stats[keep, 2:4].max(axis=1)
    keep = keep[(gap < reach[:, None]).sum(axis=1) - 1 <= WHOLE_CROWD]
    if look.bgr is not None:
        keep = keep[_paper_round(look.bgr, np.round(stats[keep, :4] * f)) <= WHOLE_GREY]
    out: list[Candidate] = []
    for k in keep.tolist():
        x, y, w, h = (int(v) for v in stats[k, :4])
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == which[k])
        xs, ys = xs - xs.mean(), ys - ys.mean()
        c20, c02, c11 = float((xs * xs).mean()), float((ys * ys).mean()), float((xs * ys).mean())
        half, spread = (c20 + c02) / 2, float(np.hypot((c20 - c02) / 2, c11))
        if half - spread <= 0.3:  # a line, not a glyph on a pip
            continue
        if not WHOLE_LONG[0] ** 2 <= (half + spread) / (half - spread) <= WHOLE_LONG[1] ** 2:
            continue
        angle = 0.5 * np.arctan2(2 * c11, c20 - c02)
        d = np.array([np.cos(angle), np.sin(angle)])
        along = xs * d[0] + ys * d[1]
        length = float(along.max() - along.min() + 1)
        mid = cents[k] + (along.max() + along.min()) / 2 * d  # the middle of its length
        for way in (d, -d):
            glyph = mid - GLYPH_AT * length * way
            pip = mid + PIP_AT * length * way
            out.append(Candidate(
                (float((glyph[0] + pip[0]) / 2), float((glyph[1] + pip[1]) / 2)),
                (float(way[0]), float(way[1])), float(GLYPH_OF * length),
                (float(glyph[0]), float(glyph[1])), (float(pip[0]), float(pip[1])),
                (((UNREAD_TAG + 2) << 24) + int(f) * (1 << 20) + int(which[k]),), 0, True))
    return out if f == 1.0 else [_scaled_up(c, f) for c in out]


def _paper_round(bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """How saturated the paper round each box (x, y, w, h) is: the median colour of eight points
    just outside it (corners and sides), as (max - min) / max of its channels. A card's paper is
    near 0 under any light; a coloured cloth is not.

    >>> import numpy as np
    >>> img = np.full((40, 80, 3), 230, np.uint8); img[:, 40:] = (40, 200, 220)  # white | yellow
    >>> [round(float(v), 2) for v in _paper_round(img, np.array([[15, 15, 8, 8], [55, 15, 8, 8]]))]
    [0.0, 0.82]
    """
    x, y, w, h = (boxes[:, k].astype(np.int64) for k in range(4))
    m = np.maximum(2, np.maximum(w, h) // 4)
    xs = np.stack([x - m, x + w // 2, x + w + m - 1], axis=1)
    ys = np.stack([y - m, y + h // 2, y + h + m - 1], axis=1)
    ring = [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)]
    px = np.stack([xs[:, i] for i, _ in ring], axis=1).clip(0, bgr.shape[1] - 1)
    py = np.stack([ys[:, j] for _, j in ring], axis=1).clip(0, bgr.shape[0] - 1)
    paper = np.median(bgr[py, px].astype(np.float32), axis=1)
    return (paper.max(axis=1) - paper.min(axis=1)) / np.maximum(paper.max(axis=1), 1)


def _outside(points: np.ndarray, polygons: Sequence[np.ndarray]) -> np.ndarray:
    """The points (N, 2) in none of the polygons.

    >>> import numpy as np
    >>> card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    >>> _outside(np.array([[50.0, 50.0], [150.0, 50.0]]), [card]).tolist()
    [[150.0, 50.0]]
    """
    return points[~inside_all(polygons, points.tolist()).any(axis=0)].reshape(-1, 2)


def _least_crowded(found: list[Candidate]) -> list[Candidate]:
    """At most ``MAX_CANDIDATES``, the least crowded (then biggest) first."""
    if len(found) <= MAX_CANDIDATES:
        return found
    return sorted(found, key=lambda c: (c.crowd, -c.size))[:MAX_CANDIDATES]


def _fresh(found: list[Candidate], old: list[Candidate]) -> list[Candidate]:
    """The candidates of ``found`` not already in ``old`` (glyph and pip within 0.2 glyph sizes).

    >>> a = Candidate((10, 15), (0, 1), 10, (10, 10), (10, 20), (1,))
    >>> b = Candidate((11, 16), (0, 1), 10, (11, 11), (11, 21), (2,))  # a again, a pixel off
    >>> c = Candidate((40, 15), (0, 1), 10, (40, 10), (40, 20), (3,))
    >>> [x.labels for x in _fresh([b, c], [a])]
    [(3,)]
    """
    if not old or not found:
        return found
    a = np.array([[*c.rank_pos, *c.suit_pos, c.size] for c in found], np.float32)
    b = np.array([[*c.rank_pos, *c.suit_pos, c.size] for c in old], np.float32)
    # only pairs whose glyphs are that close across can be the same (a frame offers hundreds of each)
    i, j = close_pairs(a[:, 0], b[:, 0], 0.2 * np.maximum(a[:, 4], b[:, 4].max()))
    gap = np.abs(a[i, :4] - b[j, :4]).max(axis=1)
    same = gap < 0.2 * np.maximum(a[i, 4], b[j, 4])
    dup = np.zeros(len(found), bool)
    dup[i[same]] = True
    return [c for c, d in zip(found, dup, strict=True) if not d]


def close_pairs(a: np.ndarray, b: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j) with ``|a[i] - b[j]| <= reach[i]`` (and a little more: it is a sieve, the caller
    tests what it needs on these alone), in order of i, then j; found through ``b`` sorted, not by
    comparing every pair.

    >>> import numpy as np
    >>> i, j = close_pairs(np.array([0.0, 10.0]), np.array([9.0, 1.0, 30.0, 0.5]), np.array([1.0, 2.0]))
    >>> i.tolist(), j.tolist()
    ([0, 0, 1], [1, 3, 0])
    """
    order = np.argsort(b, kind="stable")
    bs = b[order].astype(np.float64)
    slack = np.asarray(reach, np.float64) * (1 + 1e-6) + 1e-4
    lo = np.searchsorted(bs, a - slack, side="left")
    hi = np.searchsorted(bs, a + slack, side="right")
    count = hi - lo
    total = int(count.sum())
    i = np.repeat(np.arange(len(a)), count)
    start = np.repeat(lo - (np.cumsum(count) - count), count)
    j = order[start + np.arange(total)]
    k = np.lexsort((j, i))
    return i[k], j[k]


def _scaled_up(c: Candidate, f: float) -> Candidate:
    """A candidate found on a pyramid level ``f`` times smaller, in the image's own pixels (all
    else, such as whether it was ``guessed``, as found).

    >>> c = _scaled_up(Candidate((10, 20), (0, 1), 8, (10, 17), (10, 23), (1,), 2, True), 2)
    >>> c.center, c.size, c.rank_pos, c.crowd, c.guessed
    ((20.5, 40.5), 16, (20.5, 34.5), 2, True)
    """
    return replace(c, center=_up(c.center, f), size=c.size * f, rank_pos=_up(c.rank_pos, f),
                   suit_pos=_up(c.suit_pos, f))


def _up(p: tuple[float, float], f: float) -> tuple[float, float]:
    """A point of a pyramid level ``f`` times smaller back in the image (pixel centres line up);
    ``p`` may also be a pair of arrays (its xs and ys)."""
    return ((p[0] + 0.5) * f - 0.5, (p[1] + 0.5) * f - 0.5)


def _half(p: tuple[float, float], x0: int, y0: int) -> tuple[float, float]:
    """A point of a twice-enlarged crop back in the image (pixel centres line up)."""
    return (p[0] / 2 - 0.25 + x0, p[1] / 2 - 0.25 + y0)


def _small_tiles(shape: tuple[int, int], centres: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Rectangles (x0, y0, x1, y1) round the grid cells holding two to ``MAX_SMALL_PER_TILE`` tiny
    glyph-like blobs, the busiest first, covering at most ``MAX_TILED`` of the image."""
    h, w = shape
    if len(centres) < 2:
        return []
    gh, gw = (h + TILE - 1) // TILE, (w + TILE - 1) // TILE
    cells = np.zeros((gh, gw), np.int32)
    np.add.at(cells, (np.clip(centres[:, 1] // TILE, 0, gh - 1).astype(int),
                      np.clip(centres[:, 0] // TILE, 0, gw - 1).astype(int)), 1)
    busy = (cells >= 2) & (cells <= MAX_SMALL_PER_TILE)  # more is texture (a card back's lattice)
    budget = int(MAX_TILED * gh * gw)
    if busy.sum() > budget:
        order = np.argsort(-cells, axis=None, kind="stable")[:budget]
        busy = np.zeros_like(busy)
        busy.flat[order] = True
    n, _, stats, _ = cv2.connectedComponentsWithStats(busy.astype(np.uint8), connectivity=8)
    m = TILE_MARGIN  # an index astride a cell's edge is whole in the margin
    return [(max(0, int(x) * TILE - m), max(0, int(y) * TILE - m), min(w, int(x + bw) * TILE + m),
             min(h, int(y + bh) * TILE + m)) for x, y, bw, bh, _ in stats[1:n]]


def _find(dark: tuple[np.ndarray, np.ndarray], max_components: int, levels: tuple[Level, ...], tag0: int,
          notes: Notes | None, inner: bool = False, whole_from: Notes | None = None,
          whole_level: int = WHOLE_LEVEL, gap: Gap | None = None, px: float | None = None,
          grey: np.ndarray | None = None) -> list[Candidate]:
    """Candidates from one darkness map (``relative_darkness``'s pair), level by level; ``inner``:
    the map is a cut-out, so blobs touching its edge are left out. ``notes`` (a first look's) takes
    its tiny blobs and, at level ``whole_level``, its blobs that may be a whole index; or
    ``whole_from`` takes those. ``gap``: the photo's distance to clear paper, and how many of the
    photo's pixels one of this map's is (blobs far from paper are left out); ``px``, that scale
    where no ``gap`` is given (1 by default). ``grey`` (:func:`grey_paper`, this map's size): where
    the paper that must ring ink can be (a coloured cloth's pale threads do not ring a blob of its
    weave as a card's paper rings its print)."""
    v, lit = dark
    scale = px if px is not None else gap[1] if gap is not None else 1.0
    paper = cv2.threshold(v, 120, 1, cv2.THRESH_BINARY)[1]  # 1 where paper (brighter than 120)
    if grey is not None:
        paper = cv2.min(paper, grey)
    integral = cv2.integral(paper)
    out: list[Candidate] = []
    for k, level in enumerate(levels):
        comps = ink_components(v, lit, level)
        # (a glyph is in part only at a strict level: at a looser one its pale strokes are ink too)
        part = PART_GLYPH / scale if level[0] <= LEVELS[0][0] else 0.0
        found = _pairs(comps, paper, integral, (tag0 + k) << 24, max_components,
                       notes if k < NOTE_LEVELS else None, inner,
                       (whole_from if whole_from is not None else notes) if k == whole_level else None,
                       gap, part)
        if found:
            out += _fresh(found, out)
    return out
