"""A whole small index as one blob: a pale rank blurred onto its pip, too joined to pair.

Such a blob is longer than wide, along the index; the glyph and the pip are placed in its two
halves, both ways round (the network reads the one that is upright). These candidates are
``guessed``, and count only read surely (``tuning.GUESSED_MIN``).

>>> import numpy as np
>>> float(_paper_round(np.full((20, 20, 3), 230, np.uint8), np.array([[5, 5, 6, 6]]))[0])  # white paper
0.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision import tuning
from vision.index.types import UNREAD_LOOK, BlobId, Candidate, Look, WholeBlobs, scaled_up, up
from vision.quads import inside_all


def whole_indices(look: Look, explained: Sequence[np.ndarray] = (),
                  read_at: Sequence[tuple[float, float]] = (), *, blobs: WholeBlobs | None = None,
                  f: float = 1.0) -> list[Candidate]:
    """Candidates for small indices whose glyph and pip are one blob at the loose level (a pale
    rank blurred onto its pip: at the strict level the rank is gone, at the loose one it touches the
    pip), outside the outlines ``explained`` and not a glyph read already (``read_at``: a card whose
    outline was not found). Such a blob is longer than wide, along the index: the
    glyph is placed in its first half and the pip in its second, both ways round (the network
    reads the one that is upright; these readings need ``tuning.GUESSED_MIN``, see :mod:`vision.reader`).
    ``blobs``: such blobs of another level (a :class:`vision.index.types.WholeBlobs`) taken on a
    map ``f`` times smaller than the photo (the first look's loose level by default).

    >>> import numpy as np
    >>> from vision.index.looks import first_look
    >>> img = np.full((120, 120, 3), 235, np.uint8)
    >>> img[40:50, 55:63] = 40; img[50:56, 57:61] = 40  # a glyph on its pip: one blob, 16 px long
    >>> [(round(c.rank_pos[1]), round(c.suit_pos[1]), c.guessed) for c in whole_indices(first_look(img))]
    [(44, 52, True), (51, 43, True)]
    >>> card = np.float32([[30, 20], [90, 20], [90, 100], [30, 100]])
    >>> whole_indices(first_look(img), [card]), whole_indices(first_look(img), (), [(58.5, 47.0)])  # read
    ([], [])
    """
    blobs = look.whole if blobs is None else blobs
    if blobs is None or not len(blobs.which):
        return []
    labels, which, stats, cents = blobs.labels, blobs.which, blobs.stats, blobs.centroids
    seen = np.stack(up(cents.T, f), axis=1)  # the centres in the photo
    keep = np.nonzero(~inside_all(explained, seen.tolist()).any(axis=0))[0]
    if not len(keep) or len(keep) > tuning.MAX_WHOLE:  # none, or a texture's blobs rather than a few indices
        return []
    if len(read_at):
        at = np.asarray(read_at, np.float64).reshape(-1, 2)
        gap = np.hypot(*(seen[keep, None, :] - at[None, :, :]).transpose(2, 0, 1))
        keep = keep[(gap >= 0.5 * f * stats[keep, 2:4].max(axis=1)[:, None]).all(axis=1)]
    # an index stands in paper: few blobs of its kind close by (a cloth's stripes are many)
    gap = np.hypot(*(cents[keep, None, :] - cents[None, :, :]).transpose(2, 0, 1))
    reach = tuning.WHOLE_REACH * stats[keep, 2:4].max(axis=1)
    keep = keep[(gap < reach[:, None]).sum(axis=1) - 1 <= tuning.WHOLE_CROWD]
    if look.bgr is not None:
        keep = keep[_paper_round(look.bgr, np.round(stats[keep, :4] * f)) <= tuning.WHOLE_GREY]
    out: list[Candidate] = []
    for k in keep.tolist():
        x, y, w, h = (int(v) for v in stats[k, :4])
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == which[k])
        xs, ys = xs - xs.mean(), ys - ys.mean()
        c20, c02, c11 = float((xs * xs).mean()), float((ys * ys).mean()), float((xs * ys).mean())
        half, spread = (c20 + c02) / 2, float(np.hypot((c20 - c02) / 2, c11))
        if half - spread <= 0.3:  # a line, not a glyph on a pip
            continue
        if not tuning.WHOLE_LONG[0] ** 2 <= (half + spread) / (half - spread) <= tuning.WHOLE_LONG[1] ** 2:
            continue
        angle = 0.5 * np.arctan2(2 * c11, c20 - c02)
        d = np.array([np.cos(angle), np.sin(angle)])
        along = xs * d[0] + ys * d[1]
        length = float(along.max() - along.min() + 1)
        mid = cents[k] + (along.max() + along.min()) / 2 * d  # the middle of its length
        for way in (d, -d):
            glyph = mid - tuning.GLYPH_AT * length * way
            pip = mid + tuning.PIP_AT * length * way
            out.append(Candidate(
                (float((glyph[0] + pip[0]) / 2), float((glyph[1] + pip[1]) / 2)),
                (float(way[0]), float(way[1])), float(tuning.GLYPH_OF * length),
                (float(glyph[0]), float(glyph[1])), (float(pip[0]), float(pip[1])),
                (BlobId(UNREAD_LOOK + 2, int(which[k]), int(f)),), 0, True))
    return out if f == 1.0 else [scaled_up(c, f) for c in out]


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
