"""The looks at a photo: the first (its own size and its halvings), and the looks where the cards
read so far leave ink unexplained.

The ink mask (:mod:`vision.index.ink`) is taken at a few darkness levels (:mod:`vision.tuning`),
strict first: a strict level separates a glyph from the card's edge or a blur that joins them, a
loose one catches faint, hazy or pale print. Where the cards read so far leave ink unexplained
(:func:`look_unread`), a strictest level splits a glyph from a paler line it touches, the loose one
thinned splits what blur has bridged, a faintest one catches thin print that blur has paled, and
(where nothing has been read) a palest one finds print under a veil of glare.

>>> import numpy as np
>>> find_indices(np.full((120, 160, 3), 200, np.uint8))
[]
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision import tuning
from vision.index.dedupe import fresh, least_crowded
from vision.index.ink import relative_darkness
from vision.index.pairing import find_at_levels
from vision.index.paper import grey_paper, paper_gap, sized
from vision.index.tiling import look_again
from vision.index.types import HALVING_LOOK, UNREAD_LOOK, Candidate, Gap, Look, Notes, scaled_up
from vision.index.whole import whole_indices
from vision.tuning import Level


def find_indices(bgr: np.ndarray, max_components: int = 1500,
                 levels: tuple[Level, ...] = tuning.LEVELS, second_look: bool = True) -> list[Candidate]:
    """Every plausible (rank glyph, pip) pair in the image, once: :func:`first_look`, and with
    ``second_look`` :func:`vision.index.tiling.look_again` everywhere it asks for."""
    look = first_look(bgr, max_components, levels)
    if not second_look:
        return look.found
    return look.found + look_again(look, max_components, levels)


def first_look(bgr: np.ndarray, max_components: int = 1500,
               levels: tuple[Level, ...] = tuning.LEVELS) -> Look:
    """Every plausible (rank glyph, pip) pair at the photo's own size, once (a pair found at two
    darkness levels is kept from the stricter one). Halvings of the photo are searched too, for
    glyphs too big for the paper estimate's window (close-ups, tight crops)."""
    notes = Notes([])
    dark = relative_darkness(bgr)
    half_grey = grey_paper(bgr)
    gap = paper_gap(dark, half_grey)
    near = cv2.resize(cv2.compare(gap, tuning.PAPER_NEAR / tuning.GAP_SCALE, cv2.CMP_LE),
                      dark[1].shape[::-1], interpolation=cv2.INTER_NEAREST)
    dark = (dark[0], cv2.bitwise_and(dark[1], near))  # ink far from any paper is no card's
    grey = sized(half_grey, dark[0].shape)
    out = find_at_levels(dark, levels, look0=0, max_components=max_components, notes=notes, gap=Gap(gap, 1.0),
                         grey=grey)
    # big glyphs (a close-up or a tight crop of one card) are looked for on halvings of the photo
    img, k = bgr, 0
    halving_levels = tuple(dict.fromkeys((*levels, tuning.THIN)))
    while min(img.shape[:2]) >= tuning.COARSE_MIN and k < 2:
        img, k = cv2.pyrDown(img), k + 1
        f = 2.0**k
        found = find_at_levels(relative_darkness(img), halving_levels, look0=HALVING_LOOK * k,
                               max_components=max_components, gap=Gap(gap, f),
                               grey=sized(half_grey, img.shape))
        back = [scaled_up(c, f) for c in found if c.size * f > tuning.BIG_GLYPH]
        if back:  # a big glyph is taken from the halving, though the full size found it too
            out = fresh(out, back) + back
    return Look(least_crowded(out), dark, gap,
                np.concatenate(notes.small) if notes.small else np.zeros((0, 2)), notes.whole, bgr, grey)


def look_unread(look: Look, explained: Sequence[np.ndarray] = (), read_at: Sequence[tuple[float, float]] = (),
                *, max_components: int = 1500, pale: bool = True) -> list[Candidate]:
    """The strictest, the thinned and the faintest darkness levels (``tuning.STRICT``,
    ``tuning.THIN``, ``tuning.FAINT``), outside the outlines of cards already read (``explained``):
    their candidates the first look did not have; and small indices that are one blob
    (:func:`vision.index.whole.whole_indices`), away from the glyphs read (``read_at``).

    A glyph that touches a paler line (the card's own edge, the shadow of a card lying over it, a
    court card's frame, a neighbour's edge in a tight row) is one blob with it at the usual levels,
    too big and thin to pair; darker than the line, it stands alone at the strictest; joined to it
    by blur's pixel or two, it stands alone once the loose level is thinned. A small rank
    drawn in thin strokes (a fanned hand's pale red "9") can blur paler than the loose level while
    its solid pip stays dark; the faintest level (taken at half size) holds it. Looking only where
    no card was read keeps this work (and the network's) off frames whose cards are all read already.
    With ``pale`` (the caller has read no card at all), the palest level (``tuning.PALE``) too: a card under
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
    gap = Gap(look.gap, 1.0)
    found = find_at_levels((v, lit), (tuning.STRICT,), look0=UNREAD_LOOK, max_components=max_components,
                           gap=gap, grey=look.grey)
    found += fresh(find_at_levels((v, lit), (tuning.THIN,), look0=UNREAD_LOOK + 3,
                                  max_components=max_components, gap=gap, grey=look.grey), found)
    # the faintest level on the half-size map: a quarter of the work (on a textured table half the
    # photo can be that faint), and a blurred rank is still a rank at half size
    h, w = v.shape
    half = (cv2.resize(v, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_AREA),
            cv2.resize(lit, ((w + 1) // 2, (h + 1) // 2), interpolation=cv2.INTER_NEAREST))
    notes = Notes([])
    gap2 = Gap(look.gap, 2.0)
    grey = sized(look.grey, half[0].shape)
    faint = [scaled_up(c, 2) for c in find_at_levels(half, (tuning.FAINT,), look0=UNREAD_LOOK + 1,
                                                     max_components=max_components, whole_from=notes,
                                                     whole_level=0, gap=gap2, grey=grey)]
    found += fresh(faint, found)
    if pale:  # nothing read yet: print as pale as a veil of glare leaves it (half size too)
        veiled = find_at_levels(half, (tuning.PALE,), look0=UNREAD_LOOK + 4, max_components=max_components,
                                gap=gap2, grey=grey)
        found += fresh([scaled_up(c, 2) for c in veiled], found)
    # small indices that are one blob: at the loose level, and (a paler, blurred rank) at the faintest
    whole = whole_indices(look, explained, read_at)
    whole += fresh(whole_indices(look, explained, read_at, blobs=notes.whole, f=2.0), whole)
    return least_crowded(fresh(found + fresh(whole, found), look.found))
