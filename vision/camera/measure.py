"""What ``crib camera check`` measures in a frame: where the cards are and how they look.

Cards are found two ways: by the card reader (a card read, or an index it could not read) and
by their outlines (:func:`vision.quads.find_quads` on a copy stretched to full brightness, down
to small cards), so a card too blurred, too dark or too small to read is still found and the
check can say why. Each card found is a :class:`CardSeen`: its centre, its outline when one
was found, its width (the outline's short side, or from its index glyph) and its glyph size.

The pixel measures are plain functions of a grey image and a mask of where the cards are:

* :func:`paper_level`: the brightness of card paper (a high percentile of the cards' pixels);
* :func:`blur_px`: how soft the edges are, as the sigma in pixels of a Gaussian blur that
  would give the steepest edges seen (a sharp frame measures under 1.2 px);
* :func:`corner_error`: how far a card outline's corners are from right angles, in degrees.

>>> import numpy as np, cv2
>>> img = np.full((200, 300, 3), 60, np.uint8)
>>> _ = cv2.rectangle(img, (100, 40), (170, 140), (235, 235, 235), -1)
>>> cards = outline_cards(img, [])
>>> len(cards), round(cards[0].width), cards[0].read
(1, 72, False)
>>> grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
>>> round(paper_level(grey, card_mask(grey.shape, cards)))
235
>>> round(blur_px(grey, card_mask(grey.shape, cards, grow=0.2), 12), 1)  # a hard edge
0.8
>>> soft = cv2.GaussianBlur(grey, (0, 0), 3)
>>> round(blur_px(soft, card_mask(grey.shape, cards, grow=0.2), 12))  # blurred by 3 px
3
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.results import CardRead, Unreadable

__all__ = ["GLYPH_PER_WIDTH", "CardSeen", "blur_px", "card_mask", "corner_error", "find_cards",
           "foreshortening", "outline_cards", "paper_level", "reader_cards", "skewed_outlines"]

GLYPH_PER_WIDTH = 0.1
"""A card's rank glyph (as the reader measures it, ``IndexSeen.size``) is about this share of the
card's width: 0.075 for the drawn decks (9 px on a 120 px card), up to 0.15 for artwork decks
and a fifth for jumbo indices; used only where no card of the frame shows both."""

SMALLEST_OUTLINE = 18
"""Outlines are looked for down to this short side (px): a card a third the size it should be
is still found, to be told it is too small."""

Grey = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class CardSeen:
    """One card in the frame: centre (x, y), outline (4 corners, or ``None`` when only its index
    was seen), width in px (short side of the outline, or from the glyph), glyph size in px
    (``None`` when only its outline was found) and whether the reader read it."""

    center: tuple[float, float]
    quad: npt.NDArray[np.float32] | None
    width: float
    glyph: float | None
    read: bool


def reader_cards(cards: list[CardRead], unreadable: list[Unreadable]) -> list[CardSeen]:
    """The cards the reader read, and the indices it saw but could not read, as cards seen.

    >>> from vision.results import IndexSeen
    >>> seen = reader_cards([CardRead("5H", 0.9, (50.0, 60.0), None, [IndexSeen((30, 30), (0, 1), 9)])],
    ...                     [Unreadable((200.0, 90.0), 8.0)])
    >>> [(c.width, c.glyph, c.read) for c in seen]
    [(90.0, 9.0, True), (80.0, 8.0, False)]
    """
    out: list[CardSeen] = []
    for card in cards:
        sizes = [i.size for i in card.indices]
        glyph = float(np.median(sizes)) if sizes else None
        quad = None if card.quad is None else np.float32(card.quad).reshape(4, 2)
        width = _short_side(quad) if quad is not None else (glyph or 0.0) / GLYPH_PER_WIDTH
        out.append(CardSeen(card.center, quad, round(width, 1), glyph, True))
    for mark in unreadable:
        if mark.size > 0:
            out.append(CardSeen(mark.center, None, round(mark.size / GLYPH_PER_WIDTH, 1), mark.size, False))
    return out


def _short_side(quad: npt.NDArray[np.float32]) -> float:
    sides = np.hypot(*(quad - np.roll(quad, -1, axis=0)).T)
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def _stretched(bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The frame scaled so its brightest paper is near white: a dim frame's outlines show too."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    top = float(np.percentile(grey[::4, ::4], 99.5))
    gain = min(8.0, 235.0 / max(top, 1.0))
    return bgr if gain <= 1.05 else cv2.convertScaleAbs(bgr, alpha=gain)


def outline_cards(bgr: npt.NDArray[np.uint8], known: list[CardSeen],
                  min_side: int = SMALLEST_OUTLINE) -> list[CardSeen]:
    """Card-shaped outlines brighter than what is around them, not already among ``known``.

    An outline is kept when its inside is paper: its upper-quartile brightness well above the
    ring just outside it. A known card whose centre lies in an outline takes that outline
    (see :func:`find_cards`), so the same card is never counted twice.
    """
    from vision.quads import find_quads, inside

    img = _stretched(bgr)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    out: list[CardSeen] = []
    for quad in find_quads(img, min_side=min_side):
        if any(inside(quad, c.center) for c in known) or not _paper_inside(grey, quad):
            continue
        out.append(CardSeen(tuple(float(v) for v in quad.mean(axis=0)), quad,  # type: ignore[arg-type]
                            round(_short_side(quad), 1), None, False))
    return out


def _paper_inside(grey: Grey, quad: npt.NDArray[np.float32]) -> bool:
    h, w = grey.shape
    side = _short_side(quad)
    inner = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inner, np.round(quad).astype(np.int32), 1)
    ring = cv2.dilate(inner, np.ones((3, 3), np.uint8), iterations=max(2, round(side * 0.08))) - inner
    if not inner.any() or not ring.any():
        return False
    paper = float(np.percentile(grey[inner > 0], 75))
    around = float(np.median(grey[ring > 0]))
    return paper > 120 and paper - around > 25


def find_cards(bgr: npt.NDArray[np.uint8], cards: list[CardRead],
               unreadable: list[Unreadable]) -> list[CardSeen]:
    """Every card in the frame: the reader's (each given the outline it alone lies in, when it
    has none) and the outlines of cards it did not read. A card known only by its index is
    given the width its glyph implies at this deck's glyph-to-width share where some card shows
    both (:data:`GLYPH_PER_WIDTH` otherwise)."""
    from vision.quads import find_quads, inside

    seen = reader_cards(cards, unreadable)
    if any(c.quad is None for c in seen):
        quads = find_quads(_stretched(bgr))
        placed = []
        for card in seen:
            mine = [q for q in quads if card.quad is None and inside(q, card.center)]
            if len(mine) == 1 and sum(inside(mine[0], c.center) for c in seen) == 1:
                card = CardSeen(card.center, mine[0], round(_short_side(mine[0]), 1), card.glyph, card.read)
            placed.append(card)
        seen = placed
    shares = [c.glyph / c.width for c in seen if c.quad is not None and c.glyph and c.width > 0]
    share = float(np.median(shares)) if shares else GLYPH_PER_WIDTH
    seen = [c if c.quad is not None or not c.glyph
            else CardSeen(c.center, None, round(c.glyph / share, 1), c.glyph, c.read) for c in seen]
    found = outline_cards(bgr, seen)
    for scale in (0.5, 0.25):  # a blurred frame's outlines show at a smaller scale
        if seen or found:
            break
        small = cv2.resize(bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        found = [CardSeen((c.center[0] / scale, c.center[1] / scale), c.quad / scale if c.quad is not None
                          else None, round(c.width / scale, 1), None, False)
                 for c in outline_cards(small, [], min_side=12)]
    return seen + found


def card_mask(shape: tuple[int, ...], cards: list[CardSeen], grow: float = 0.0) -> Mask:
    """Where the cards lie: each outline (grown by ``grow`` of the card's width), or for a card
    seen only by its index, a disc round it as wide as a card is long (grown likewise)."""
    mask = np.zeros(shape[:2], np.uint8)
    for card in cards:
        if card.quad is not None:
            centre = card.quad.mean(axis=0)
            quad = centre + (card.quad - centre) * (1 + 2 * grow)
            cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
        else:
            cx, cy = card.center
            cv2.circle(mask, (round(cx), round(cy)), max(3, round(card.width * (0.75 + grow))), 1, -1)
    return mask > 0


def paper_level(grey: Grey, mask: Mask) -> float:
    """Card paper's brightness: the 90th percentile of the cards' pixels (0-255; 0 with none)."""
    return float(np.percentile(grey[mask], 90)) if mask.any() else 0.0


def blur_px(grey: Grey, mask: Mask, window: int) -> float:
    """How soft the edges in ``mask`` are: the sigma (px) of the Gaussian blur whose steepest
    slope, for an edge of the contrast seen around it (within ``window`` px), is the slope seen.

    Contrast-free: a dim frame's edges are as sharp as a bright one's. A perfectly sharp edge
    measures about 0.8 px (the slope of one pixel's step); ``inf`` when no edge has contrast.
    """
    window = max(3, window | 1)
    g = grey.astype(np.float32)
    kernel = np.ones((window, window), np.uint8)
    spread = cv2.dilate(g, kernel) - cv2.erode(g, kernel)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8
    slope = np.hypot(gx, gy)
    least = max(24.0, 0.25 * float(np.percentile(g[mask], 90))) if mask.any() else 24.0
    edges = mask & (spread >= least)
    if edges.sum() < 20:
        return math.inf
    ratio = float(np.percentile(slope[edges] / spread[edges], 99))
    return 1.0 / (ratio * math.sqrt(2 * math.pi)) if ratio > 0 else math.inf


def skewed_outlines(bgr: npt.NDArray[np.uint8], min_side: int = 40) -> list[npt.NDArray[np.float32]]:
    """Bright convex four-sided outlines whose long side is 1.2 to 3.5 times their short one:
    cards as a leaning camera sees them, foreshortened past the proportions
    :func:`vision.quads.find_quads` accepts (it looks for cards seen square).

    >>> img = np.full((300, 300, 3), 60, np.uint8)
    >>> _ = cv2.fillConvexPoly(img, np.int32([[100, 40], [160, 40], [180, 250], [80, 250]]), (240,) * 3)
    >>> [round(corner_error(q)) for q in skewed_outlines(img)]
    [5]
    """
    img = _stretched(bgr)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 40, 120), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for cnt in contours:
        hull = cv2.convexHull(cnt)
        if cv2.contourArea(hull) < min_side * min_side:
            continue
        approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        if len(approx) != 4:
            continue
        quad = approx.reshape(4, 2).astype(np.float32)
        sides = np.hypot(*(quad - np.roll(quad, -1, axis=0)).T)
        a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        if min(a, b) >= min_side and 1.2 < max(a, b) / min(a, b) < 3.5 and _paper_inside(grey, quad):
            out.append(quad)
    return out


def foreshortening(quad: npt.NDArray[np.float32], usual: float = 1.45) -> float:
    """The lean (degrees) that would foreshorten a card of ``usual`` proportions (poker 1.40,
    bridge 1.56) to the outline's: 0 for proportions up to 1.8.

    >>> foreshortening(np.float32([[0, 0], [10, 0], [10, 14], [0, 14]]))
    0.0
    >>> round(foreshortening(np.float32([[0, 0], [10, 0], [10, 29], [0, 29]])))
    60
    """
    sides = np.hypot(*(quad - np.roll(quad, -1, axis=0)).T)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    ratio = max(a, b) / max(min(a, b), 1e-6)
    return 0.0 if ratio <= 1.8 else math.degrees(math.acos(min(1.0, usual / ratio)))


def corner_error(quad: npt.NDArray[np.float32]) -> float:
    """The largest difference from a right angle among an outline's four corners, in degrees.

    >>> corner_error(np.float32([[0, 0], [10, 0], [10, 14], [0, 14]]))
    0.0
    >>> round(corner_error(np.float32([[0, 0], [10, 0], [12, 14], [-2, 14]])), 1)
    8.1
    """
    worst = 0.0
    for k in range(4):
        a, b, c = quad[k - 1], quad[k], quad[(k + 1) % 4]
        u, v = a - b, c - b
        cos = float(np.dot(u, v) / max(np.linalg.norm(u) * np.linalg.norm(v), 1e-9))
        worst = max(worst, abs(math.degrees(math.acos(max(-1.0, min(1.0, cos)))) - 90.0))
    return worst
