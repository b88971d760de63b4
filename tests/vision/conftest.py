"""Scenes the tests draw themselves: OpenCV-drawn cards on procedural tables (no card art needed).

The deck is ``procedural_deck(7)``, the drawn style the network never trained on (it is in the
``val`` split), so these tests read a deck the model has not seen."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth.compose import drawn_table, mild, place, table_image
from vision.synth.decks import procedural_deck

scene = drawn_table  # the tests' tables (vision.synth.compose)


@pytest.fixture(scope="session")
def make_scene():
    return scene


def backlit(name: str, angle: float, seed: int) -> np.ndarray:
    """One card behind a window, lit from behind: its paper dim and tinted cyan, a band of glare
    (pure white) right round its edge, dark beyond (how a webcam in a card shoe sees it)."""
    rng = np.random.default_rng(seed)
    img = np.full((480, 640, 3), 128, np.uint8)
    place(img, procedural_deck(7).render(name, 600), (320, 240), 300, angle, rng, tilt=0.03)
    card = (np.abs(img.astype(int) - 128).max(axis=2) > 3).astype(np.uint8)
    card = cv2.morphologyEx(card, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)) > 0
    glare = cv2.dilate(card.astype(np.uint8), np.ones((31, 31), np.uint8)) > 0
    out = np.full_like(img, 30)
    out[glare] = 255
    out[card] = (img[card] * np.array([0.4, 0.38, 0.28])).astype(np.uint8)
    return mild(cv2.GaussianBlur(out, (0, 0), 1.2), rng)


@pytest.fixture(scope="session")
def make_backlit():
    return backlit


def on_table(face: np.ndarray, width: int, angle: float, seed: int) -> np.ndarray:
    """A card face (as drawn, at any size) ``width`` px wide in the middle of a 1280x720 table."""
    h, w = face.shape[:2]
    rng = np.random.default_rng(seed)
    img = table_image(rng, 720, 1280)
    face = cv2.resize(face, (2 * width, round(2 * width * h / w)), interpolation=cv2.INTER_AREA)
    place(img, face, (640, 360), width, angle, rng, tilt=0.03)
    return mild(img, rng)


def framed(name: str, angle: float, seed: int = 7, width: int = 200) -> np.ndarray:
    """One card whose corner indices each touch a grey line down the card (as a court card's frame
    or the edge of a card lying over it touches the index in some decks): along the index box's
    right edge, paler than the print."""
    deck = procedural_deck(7)
    face = deck.master(name).copy()
    h, w = face.shape[:2]
    for _x0, _y0, x1, _y1 in deck.indices(name):
        x = int(x1 * w)
        cv2.rectangle(face, (x, int(0.02 * h)), (x + int(0.02 * w), int(0.98 * h)), (120, 120, 120, 255), -1)
    return on_table(face, width, angle, seed)


@pytest.fixture(scope="session")
def make_framed():
    return framed


def printed_small(name: str, share: float = 0.28, seed: int = 1, width: int = 360) -> np.ndarray:
    """A blank card ``width`` px wide with ``name``'s corner index printed in its corner at ``share``
    of the size the deck prints it (as a card back's pattern, or a card pictured on its box, prints
    an index far too small for the card round it)."""
    deck = procedural_deck(7)
    card = np.full_like(deck.master("AS"), 255)
    h, w = card.shape[:2]
    face = deck.master(name)
    fh, fw = face.shape[:2]
    x0, y0, x1, y1 = deck.indices(name)[0]
    index_print = face[int(y0 * fh) - 4:int(y1 * fh) + 4, int(x0 * fw) - 4:int(x1 * fw) + 4]
    small = cv2.resize(index_print, None, fx=share, fy=share, interpolation=cv2.INTER_AREA)
    card[int(0.06 * h):int(0.06 * h) + small.shape[0], int(0.07 * w):int(0.07 * w) + small.shape[1]] = small
    return on_table(card, width, 10, seed)


@pytest.fixture(scope="session")
def make_printed_small():
    return printed_small


def pale_rank(name: str, ink: float = 0.3, seed: int = 7, width: int = 150) -> np.ndarray:
    """One card whose rank glyphs print at ``ink`` of their strength (the pip at full strength): a
    thin rank blurred paler than its solid pip, or a faded deck."""
    deck = procedural_deck(7)
    face = deck.master(name).copy()
    h, w = face.shape[:2]
    for x0, y0, x1, y1 in deck.indices(name):
        top, bottom = int(y0 * h), int(y1 * h)
        glyph_h = int(0.55 * (bottom - top))  # the rank: the upper part of the index, as the card is turned
        rows = slice(top, top + glyph_h) if y0 < 0.5 else slice(bottom - glyph_h, bottom)
        glyph = face[rows, int(x0 * w):int(x1 * w), :3].astype(np.float32)
        face[rows, int(x0 * w):int(x1 * w), :3] = (255 - (255 - glyph) * ink).astype(np.uint8)
    return on_table(face, width, 0, seed)


@pytest.fixture(scope="session")
def make_pale_rank():
    return pale_rank


def touching(name: str, ink: float = 0.7, seed: int = 7, width: int = 75, angle: float = 20,
             lift: float = 0.15) -> np.ndarray:
    """One small card whose indices print the pip ``lift`` (of the index's height) up against its
    rank, the rank at ``ink`` of its strength: a pale rank blurred onto its pip, one blob with it."""
    deck = procedural_deck(7)
    face = deck.master(name).copy()
    h, w = face.shape[:2]
    paper = face[h // 2, 3, :3].copy()
    for x0, y0, x1, y1 in deck.indices(name):
        top, bottom = int(y0 * h), int(y1 * h)
        cols = slice(int(x0 * w), int(x1 * w))
        glyph_h = int(0.55 * (bottom - top))  # the rank: the upper part of the index, as the card is turned
        shift = int(lift * (bottom - top))
        if y0 < 0.5:
            rank, pip, moved = (slice(top, top + glyph_h), slice(top + glyph_h, bottom),
                                slice(top + glyph_h - shift, bottom - shift))
        else:
            rank, pip, moved = (slice(bottom - glyph_h, bottom), slice(top, bottom - glyph_h),
                                slice(top + shift, bottom - glyph_h + shift))
        drawn = face[pip, cols, :3].copy()
        face[pip, cols, :3] = paper
        face[moved, cols, :3] = np.minimum(face[moved, cols, :3], drawn)
        glyph = face[rank, cols, :3].astype(np.float32)
        face[rank, cols, :3] = (255 - (255 - glyph) * ink).astype(np.uint8)
    return on_table(face, width, angle, seed)


@pytest.fixture(scope="session")
def make_touching():
    return touching


def tight_spread(names: list[str], seed: int, width: int = 200, step: float = 0.12,
                 angle: float = 0.0) -> np.ndarray:
    """Cards spread left to right, each over the last, ``step`` of a card's width apart: each
    shows only a strip with its top index, the next card's edge just past it and the last card's
    index at its left (a deck spread to be looked through)."""
    rng = np.random.default_rng(seed)
    img = table_image(rng, 720, 1280)
    deck = procedural_deck(7)
    a = np.radians(angle)
    x0 = 640 - (len(names) - 1) * step * width / 2
    for k, name in enumerate(names):
        dx = k * step * width
        centre = (x0 + dx * np.cos(a), 360 + dx * np.sin(a))
        place(img, deck.render(name, 2 * width), centre, width, angle, rng, tilt=0.01)
    return mild(img, rng)


@pytest.fixture(scope="session")
def make_tight_spread():
    return tight_spread


def printed_in(name: str, bgr: tuple[int, int, int] | None, width: int = 150, angle: float = 60,
               seed: int = 1) -> np.ndarray:
    """One card of the drawn deck on a table, its red print in the colour ``bgr`` instead (a
    four-colour deck's blue diamonds; a red suit printed black, which no deck does); None: as drawn."""
    face = procedural_deck(7).master(name).copy()
    if bgr is not None:
        b, g, r = (face[..., k].astype(int) for k in range(3))
        red = r - np.maximum(g, b) > 60
        strength = (r - np.maximum(g, b))[red] / 255
        for k in range(3):
            face[..., k][red] = np.clip(255 - strength * (255 - bgr[k]), 0, 255).astype(np.uint8)
    return on_table(face, width, angle, seed)


@pytest.fixture(scope="session")
def make_printed():
    return printed_in
