"""Pairing: each blob that could be a rank glyph paired with a blob below it of suit-pip size.

The vector glyph → pip is the card's "down", which fixes any rotation. A glyph's side-by-side
neighbour joins it (the "1" and "0" of a "10"). Only blobs ringed by paper and near clear paper
(:func:`vision.index.paper.near_paper`) count, and never a crowd of them (a card back's lattice,
a cloth's grain).

>>> import numpy as np
>>> find_at_levels((np.full((40, 40), 200, np.uint8), np.full((40, 40), 255, np.uint8)), tuning.LEVELS,
...                look0=0, max_components=100)  # blank paper
[]
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import tuning
from vision.index.dedupe import close_pairs, fresh
from vision.index.ink import ink_components
from vision.index.paper import near_paper
from vision.index.types import BlobId, Candidate, Components, Gap, Notes, WholeBlobs
from vision.tuning import Level


def find_at_levels(dark: tuple[np.ndarray, np.ndarray], levels: tuple[Level, ...], *, look0: int,
                   max_components: int, notes: Notes | None = None, inner: bool = False,
                   whole_from: Notes | None = None, whole_level: int = tuning.WHOLE_LEVEL,
                   gap: Gap | None = None, px: float | None = None,
                   grey: np.ndarray | None = None) -> list[Candidate]:
    """Candidates from one darkness map (:func:`vision.index.ink.relative_darkness`'s pair), level
    by level, the blobs of level ``k`` named as look ``look0 + k`` (:class:`BlobId`); ``inner``:
    the map is a cut-out, so blobs touching its edge are left out. ``notes`` (a first look's) takes
    its tiny blobs and, at level ``whole_level``, its blobs that may be a whole index; or
    ``whole_from`` takes those. ``gap``: the photo's distance to clear paper, and how many of the
    photo's pixels one of this map's is (blobs far from paper are left out); ``px``, that scale
    where no ``gap`` is given (1 by default). ``grey`` (:func:`vision.index.paper.grey_paper`, this
    map's size): where the paper that must ring ink can be (a coloured cloth's pale threads do not
    ring a blob of its weave as a card's paper rings its print)."""
    v, lit = dark
    scale = px if px is not None else gap.scale if gap is not None else 1.0
    paper = cv2.threshold(v, 120, 1, cv2.THRESH_BINARY)[1]  # 1 where paper (brighter than 120)
    if grey is not None:
        cv2.min(paper, grey, dst=paper)
    integral = cv2.integral(paper)
    out: list[Candidate] = []
    for k, level in enumerate(levels):
        whole = (whole_from if whole_from is not None else notes) if k == whole_level else None
        comps = ink_components(v, lit, level, labels=whole is not None)  # only whole blobs need them
        # (a glyph is in part only at a strict level: at a looser one its pale strokes are ink too)
        part = tuning.PART_GLYPH / scale if level.ink <= tuning.LEVELS[0].ink else 0.0
        found = pairs(comps, paper, integral, look=look0 + k, max_components=max_components,
                      notes=notes if k < tuning.NOTE_LEVELS else None, inner=inner,
                      whole=whole,
                      gap=gap, part=part)
        del comps  # this level's labels go before the next level's are made
        if found:
            out += fresh(found, out)
    return out


def pairs(comps: Components, paper: np.ndarray, integral: np.ndarray, *, look: int, max_components: int,
          notes: Notes | None = None, inner: bool = False, whole: Notes | None = None,
          gap: Gap | None = None, part: float = 0.0) -> list[Candidate]:
    """Glyph/pip pairs among the ink components of one level (look ``look``; ``paper``: where paper
    is, 0/1, and its ``integral``); ``notes`` takes its tiny blobs (for
    :func:`vision.index.tiling.look_again`), ``whole`` its blobs that may be a whole index (for
    :func:`vision.index.looks.look_unread`);
    with ``gap``, only blobs near clear paper count (:func:`near_paper`). ``part``: glyph blobs
    up to this size (px of this map) may be part of their glyph (:data:`tuning.PART_GLYPH`)."""
    n, stats, cents, solid, labels = comps.count, comps.stats, comps.centroids, comps.solid, comps.labels
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
        idx = idx[near_paper(gap, cents[1:][idx], size[idx])]
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
        one = idx[(ringed > tuning.WHOLE_RING) & solid[1:][idx]
                  & (size[idx] >= tuning.WHOLE_SIZE[0]) & (size[idx] <= tuning.WHOLE_SIZE[1])
                  & (fill[idx] > tuning.WHOLE_FILL[0]) & (fill[idx] < tuning.WHOLE_FILL[1])]
        assert labels is not None  # kept for the whole level (find_at_levels)
        whole.whole = WholeBlobs(labels, one + 1, stats[1:][one], cents[1:][one])
    idx = idx[ringed > 0.5]
    idx = idx[size[idx] <= tuning.MAX_GLYPH]
    # a faint blob can only be a rank glyph (6 px at least); where hundreds of them are about, they
    # are a cloth's weave, and faint print cannot be told from it: then only solid ink counts
    faint = ~solid[1:][idx] & (size[idx] >= 6)
    if faint.sum() > tuning.MAX_FAINT:
        faint[:] = False
    idx = idx[solid[1:][idx] | faint]
    if len(idx) == 0:
        return []
    if len(idx) > max_components:
        idx = idx[np.argsort(-area[idx])[:max_components]]
    out = _match(cents[1:][idx].astype(np.float32), size[idx], stats[1:][idx], solid[1:][idx],
                 idx=idx, look=look, part=part)
    if notes is not None:
        tiny = (size[idx] >= 3) & (size[idx] <= tuning.SMALL_GLYPH) & solid[1:][idx]
        # (tiny blobs already paired count too: at this size they often pair wrong)
        t = np.nonzero(tiny)[0]
        if len(t):
            # only tiny blobs with a partner where a glyph's pip would be (a speck alone is dust)
            ct, st = cents[1:][idx[t]], size[idx[t]].astype(np.float32)
            small_all = idx[size[idx] <= 2 * tuning.SMALL_GLYPH]
            notes.small.append(ct[_with_partner(ct, st, cents[1:][small_all])])
    return out


def _with_partner(ct: np.ndarray, st: np.ndarray, ca: np.ndarray, block: int = 128) -> np.ndarray:
    """Which tiny blobs (centres ``ct``, sizes ``st``) have a blob of ``ca`` where a glyph's pip
    would be (0.5 to 1.6 of its size and 2 px off). A felt's weave makes thousands of each: the
    distances are taken ``block`` tiny blobs at a time, so a frame's reading holds a few MB of
    them, not a thousand by two thousand.

    >>> import numpy as np
    >>> ct = np.array([[10.0, 10.0], [50.0, 50.0]]); st = np.array([4.0, 4.0], np.float32)
    >>> _with_partner(ct, st, np.array([[10.0, 14.0], [90.0, 90.0]]), block=1).tolist()
    [True, False]
    """
    found = np.zeros(len(ct), bool)
    for b in range(0, len(ct), block):
        c, s = ct[b:b + block], st[b:b + block, None]
        gap = np.hypot(c[:, None, 0] - ca[None, :, 0], c[:, None, 1] - ca[None, :, 1])
        found[b:b + block] = ((gap > 0.5 * s) & (gap < 1.6 * s + 2)).any(axis=1)
    return found


def _match(c: np.ndarray, s: np.ndarray, st: np.ndarray, solid: np.ndarray, *, idx: np.ndarray, look: int,
           part: float = 0.0) -> list[Candidate]:
    """Pair glyphs (centres ``c``, sizes ``s``, OpenCV stats ``st``; ``idx``: their component
    labels less one, of look ``look``) with solid pips below them; a
    glyph up to ``part`` px (:data:`tuning.PART_GLYPH` in this map's pixels, at a strict level) with one up
    to ``tuning.PART_REACH`` of its sizes off.

    Everything asked of two blobs here holds only within 3 glyph sizes (the lattice test is the
    widest), so only those pairs are looked at (:func:`vision.index.dedupe.close_pairs`), not every
    pair of the frame's hundreds of blobs.

    >>> import numpy as np
    >>> c = np.array([[20, 20], [20, 34], [60, 20]], np.float32)  # a glyph, the pip below it, a speck
    >>> s = np.array([10, 9, 4], np.float32)
    >>> st = np.array([[15, 15, 8, 10, 50], [16, 30, 9, 8, 55], [58, 18, 4, 4, 12]])
    >>> [(k.rank_pos, k.suit_pos) for k in _match(c, s, st, np.ones(3, bool), idx=np.arange(3), look=0)]
    [((20.0, 20.0), (20.0, 34.0)), ((20.0, 34.0), (20.0, 20.0))]
    >>> c = np.array([[16, 20], [25, 20], [20.5, 34]], np.float32)  # a "10": its two digits, the pip
    >>> s = np.array([10, 10, 9], np.float32)
    >>> st = np.array([[14, 15, 4, 10, 30], [21, 15, 8, 10, 50], [16, 30, 9, 8, 55]])
    >>> ten = [k for k in _match(c, s, st, np.ones(3, bool), idx=np.arange(3), look=0) if len(k.labels) == 3]
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
    pair = (dist > 0.65 * s[i]) & (dist < np.where(s[i] <= part, tuning.PART_REACH, 1.6) * s[i])
    pair &= (ratio > 0.4) & (ratio < 1.4)
    pair &= s[i] >= 6  # a rank glyph is at least 6 px
    pair &= solid[j]  # and its pip is solid (a faint blob may be a glyph, not a pip)
    # two of the same pip in a card's body are not a rank over a pip: same box, same ink
    bw, bh, area = st[:, 2].astype(np.float32), st[:, 3].astype(np.float32), st[:, 4].astype(np.float32)
    twin = ((np.abs(bw[i] - bw[j]) <= 1) & (np.abs(bh[i] - bh[j]) <= 1)
            & (np.abs(area[i] - area[j]) <= tuning.TWIN_AREA * area[i]))
    pair &= ~twin
    if not pair.any():
        return []
    # a corner index stands in paper: its glyph has a few neighbours (pip, the other digit of a
    # "10", the next card's index in a row), never the crowd of a card back's lattice or of grain
    # (each blob counts itself once, hence the - 1)
    crowd = np.bincount(i, (dist < 1.5 * s[i]) & (ratio > 0.3), len(s)).astype(np.int64) - 1
    lattice = np.bincount(i, (ratio > 0.6) & (ratio < 1.7), len(s)).astype(np.int64) - 1
    pair &= (crowd[i] <= tuning.MAX_CROWD) & (lattice[i] <= tuning.MAX_LATTICE)
    # a glyph's own pip is among its nearest partners: in a tight row the next cards' pips are
    # further off, diagonally; keep the nearest few only
    ii, jj, d = i[pair], j[pair], dist[pair]
    per = np.bincount(ii, minlength=len(s))
    if (per > tuning.MAX_PIPS).any():
        by = np.lexsort((d, ii))  # each glyph's partners, nearest first
        first = np.cumsum(per) - per  # where each glyph's partners start in that order
        cut = np.full(len(s), np.inf, np.float32)
        many = np.nonzero(per > tuning.MAX_PIPS)[0]
        cut[many] = d[by[first[many] + tuning.MAX_PIPS - 1]]
        keep = d <= cut[ii]
        ii, jj = ii[keep], jj[keep]
    if len(ii) > tuning.MAX_PAIRS:
        order = np.lexsort((-s[ii], crowd[ii]))[:tuning.MAX_PAIRS]
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
            tuple(BlobId(look, int(idx[k]) + 1) for k in [*group, j]),
            int(crowd[i]),
        ))
    return out
