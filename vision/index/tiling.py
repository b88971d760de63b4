"""The second look: small cards' tiny glyphs, looked at again twice the size, tile by tile.

A first look notes tiny blobs ringed by paper (:class:`vision.index.types.Notes`); the grid cells
holding a few of them (not a card back's lattice of many) are enlarged and searched again.

>>> import numpy as np
>>> small_tiles((256, 256), np.array([[10.0, 10.0], [20.0, 12.0]]))  # two tiny blobs in one cell
[(0, 0, 88, 88)]
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision import tuning
from vision.index.dedupe import fresh, least_crowded
from vision.index.pairing import find_at_levels
from vision.index.paper import near_paper, sized
from vision.index.types import Candidate, Gap, Look, enlarged_back
from vision.quads import inside_all
from vision.tuning import Level


def look_again(look: Look, max_components: int = 1500, levels: tuple[Level, ...] = tuning.LEVELS,
               explained: Sequence[np.ndarray] = ()) -> list[Candidate]:
    """The second look: places holding tiny glyphs (small cards) enlarged twice and looked at
    again; the candidates found there that the first look did not have. ``explained``: outlines
    (polygons) of cards already read at a bigger size, whose tiny blobs are their own print (a face
    card's picture), not small cards.

    >>> import numpy as np
    >>> from vision.index.looks import first_look
    >>> look_again(first_look(np.full((120, 160, 3), 200, np.uint8)))
    []
    """
    small = outside(look.small, explained)
    v, lit = look.dark
    out: list[Candidate] = []
    pieces = [p for tile in small_tiles(v.shape[:2], small) for p in pieces_of(tile)]
    for t, (x0, y0, x1, y1) in enumerate(pieces, 1):
        # the darkness map enlarged, rather than the photo: the paper level is smooth anyway
        crop = (cv2.resize(v[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR),
                cv2.resize(lit[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
        grey = None if look.grey is None else sized(look.grey[y0:y1, x0:x1], crop[0].shape)
        found = [Candidate(enlarged_back(c.center, x0, y0), c.down, c.size / 2,
                           enlarged_back(c.rank_pos, x0, y0), enlarged_back(c.suit_pos, x0, y0), c.labels,
                           c.crowd)
                 for c in find_at_levels(crop, levels[:tuning.TILE_LEVELS], look0=t * len(levels),
                                         max_components=max_components, inner=True, px=0.5, grey=grey)
                 if c.size <= 2 * tuning.SECOND_LOOK_MAX]  # a bigger glyph: the first look had it
        if found:
            out += fresh(found, look.found + out)
    if out:  # a tile enlarged is not the photo: its blobs are judged here
        near = near_paper(Gap(look.gap, 1.0), np.array([c.center for c in out]),
                          np.array([c.size for c in out]))
        out = [c for c, n in zip(out, near, strict=True) if n]
    return least_crowded(out)


def small_tiles(shape: tuple[int, int], centres: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Rectangles (x0, y0, x1, y1) round the grid cells holding two to ``tuning.MAX_SMALL_PER_TILE`` tiny
    glyph-like blobs, the busiest first, covering at most ``tuning.MAX_TILED`` of the image."""
    h, w = shape
    if len(centres) < 2:
        return []
    gh, gw = (h + tuning.TILE - 1) // tuning.TILE, (w + tuning.TILE - 1) // tuning.TILE
    cells = np.zeros((gh, gw), np.int32)
    np.add.at(cells, (np.clip(centres[:, 1] // tuning.TILE, 0, gh - 1).astype(int),
                      np.clip(centres[:, 0] // tuning.TILE, 0, gw - 1).astype(int)), 1)
    busy = (cells >= 2) & (cells <= tuning.MAX_SMALL_PER_TILE)  # more is texture (a card back's lattice)
    budget = int(tuning.MAX_TILED * gh * gw)
    if busy.sum() > budget:
        order = np.argsort(-cells, axis=None, kind="stable")[:budget]
        busy = np.zeros_like(busy)
        busy.flat[order] = True
    n, _, stats, _ = cv2.connectedComponentsWithStats(busy.astype(np.uint8), connectivity=8)
    m = tuning.TILE_MARGIN  # an index astride a cell's edge is whole in the margin
    step = tuning.TILE
    return [(max(0, int(x) * step - m), max(0, int(y) * step - m), min(w, int(x + bw) * step + m),
             min(h, int(y + bh) * step + m)) for x, y, bw, bh, _ in stats[1:n]]


Box = tuple[int, int, int, int]


def pieces_of(tile: Box, most: int | None = None) -> list[Box]:
    """A tile (x0, y0, x1, y1) of :func:`small_tiles` cut into pieces at most ``most`` px a side
    (``tuning.TILE_PIECE`` by default), with ``tuning.TILE_MARGIN`` more round each, as round the
    tile: enlarged twice, a piece's maps are a few MB, not the tile's tens.

    >>> pieces_of((0, 0, 300, 100), most=128)
    [(0, 0, 152, 100), (104, 0, 280, 100), (232, 0, 300, 100)]
    """
    x0, y0, x1, y1 = tile
    most = tuning.TILE_PIECE if most is None else most
    m = tuning.TILE_MARGIN
    xs = range(x0, x1, most) if x1 - x0 > most + 2 * m else range(x0, x0 + 1)
    ys = range(y0, y1, most) if y1 - y0 > most + 2 * m else range(y0, y0 + 1)
    return [(max(x0, x - m), max(y0, y - m), min(x1, x + most + m) if len(xs) > 1 else x1,
             min(y1, y + most + m) if len(ys) > 1 else y1) for y in ys for x in xs]


def outside(points: np.ndarray, polygons: Sequence[np.ndarray]) -> np.ndarray:
    """The points (N, 2) in none of the polygons.

    >>> import numpy as np
    >>> card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    >>> outside(np.array([[50.0, 50.0], [150.0, 50.0]]), [card]).tolist()
    [[150.0, 50.0]]
    """
    return points[~inside_all(polygons, points.tolist()).any(axis=0)].reshape(-1, 2)
