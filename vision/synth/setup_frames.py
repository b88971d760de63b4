"""Frames of a table being set up, good and bad, for ``crib camera check``'s tests and benchmark.

:func:`good_frame` lays a two-player table as a camera 1280x720 overhead sees it: each player's
cards in a row in front of them (one seat's apart, the other's overlapping as played), a starter
in the centre, cards 100-150 px wide. The faults are image operations on a good frame, as the
camera would show them:

* :func:`too_dark`: a lamp off (the frame at a small share of its light, with sensor noise);
* :func:`too_bright`: over-exposed (the frame multiplied until the paper and the table clip);
* :func:`out_of_focus`: a Gaussian blur of a share of the card's width;
* :func:`too_high`: the camera three times higher: the table shrunk to a third, more table round it;
* :func:`glare`: a lamp's bright reflection on one card;
* :func:`flickering`: several frames whose light beats and whose rows band (a mains lamp);
* :func:`tilted`: the camera leaning, so the table is seen in perspective.

>>> frame, width = good_frame(3, "procedural-7", "wood_dark")
>>> frame.shape, 100 <= width <= 150
((720, 1280, 3), True)
>>> too_high(frame, 3).shape, len(flickering(frame, 5))
((720, 1280, 3), 5)
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.compose import mild, place, table_image
from vision.synth.decks import Deck, load_decks, procedural_deck

__all__ = ["SIZE", "deck_named", "flickering", "glare", "good_frame", "out_of_focus", "tilted",
           "too_bright", "too_dark", "too_high"]

Image = npt.NDArray[np.uint8]
SIZE = (720, 1280)
"""Frame height and width."""
CARDS = ("5H", "KS", "9D", "AC", "TH", "4S", "QD", "7C", "6H", "2D", "JC", "8S", "3H")


def deck_named(name: str) -> Deck:
    """``procedural-N`` (drawn, no artwork needed) or an artwork deck's name (``ar-paris``)."""
    if name.startswith("procedural-"):
        return procedural_deck(int(name.rsplit("-", 1)[1]))
    decks = load_decks([name])
    if not decks:
        raise LookupError(f"no deck {name}: its artwork is not installed")
    return decks[0]


def good_frame(seed: int, deck: str = "procedural-7", table: str | None = "wood_dark",
               tilt: float = 0.05) -> tuple[Image, float]:
    """A good overhead frame and its cards' width (px): seat A's row at the bottom, apart, seat
    B's at the top, upside down and overlapping as played, and the starter in the centre."""
    rng = np.random.default_rng(seed)
    faces = deck_named(deck)
    h, w = SIZE
    width = float(rng.uniform(100, 150))
    img = table_image(rng, h, w, table)
    names = list(rng.permutation(CARDS))
    texture = 2 * int(width)
    for k in range(3):  # seat A: apart
        x = w / 2 + (k - 1) * 1.5 * width + rng.uniform(-10, 10)
        place(img, faces.render(names.pop(), texture), (x, h - 1.0 * width), width,
              float(rng.uniform(-8, 8)), rng, tilt)
    for k in range(3):  # seat B: overlapping, each covering the one before
        x = w / 2 - 0.35 * width * (k - 1)
        place(img, faces.render(names.pop(), texture), (x, 0.95 * width), width,
              float(180 + rng.uniform(-6, 6)), rng, tilt)
    place(img, faces.render(names.pop(), texture), (w / 2 + rng.uniform(-60, 60), h / 2), width,
          float(rng.uniform(-20, 20)), rng, tilt)
    return mild(img, rng), width


def too_dark(img: Image, light: float = 0.12, seed: int = 0) -> Image:
    """The frame at ``light`` of its brightness, with a dim sensor's noise."""
    rng = np.random.default_rng(seed)
    f = img.astype(np.float32) * light + rng.normal(0, 1.5, img.shape)
    return np.clip(f, 0, 255).astype(np.uint8)


def too_bright(img: Image, gain: float = 2.2) -> Image:
    """Over-exposed: every level times ``gain``, clipped."""
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def out_of_focus(img: Image, sigma: float) -> Image:
    """The frame blurred by a Gaussian of ``sigma`` px."""
    return cv2.GaussianBlur(img, (0, 0), sigma)


def too_high(img: Image, times: float = 3.0, seed: int = 0, table: str | None = "wood_dark") -> Image:
    """The camera ``times`` higher: the frame shrunk by ``times`` in the middle of more table."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    out = table_image(rng, h, w, table)
    sw, sh = round(w / times), round(h / times)
    small = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA)
    y, x = (h - sh) // 2, (w - sw) // 2
    out[y:y + sh, x:x + sw] = small
    return mild(out, rng)


def glare(img: Image, at: tuple[float, float], radius: float, strength: float = 200.0,
          exposure: float = 0.8) -> Image:
    """A lamp's reflection: a soft bright spot of ``radius`` px at ``at``, ``strength`` levels, in
    a frame exposed as a camera's automatic exposure does (``exposure`` of the rendered light,
    so the paper is not at full white)."""
    img = too_bright(img, exposure)
    h, w = img.shape[:2]
    spot = np.zeros((h, w), np.float32)
    cv2.circle(spot, (round(at[0]), round(at[1])), round(radius), 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), radius / 3)
    f = img.astype(np.float32) + spot[..., None] * strength
    return np.clip(f, 0, 255).astype(np.uint8)


def flickering(img: Image, frames: int = 20, depth: float = 0.12, bands: float = 3.0,
               drift: float = 0.3, seed: int = 0) -> list[Image]:
    """``frames`` frames under a lamp on the mains: the light swings by ``depth`` in ``bands``
    bands down the frame (a rolling shutter reads the rows one after another while the lamp
    beats at 100 or 120 Hz) that move ``drift`` of a band from one frame to the next (the frame
    rate is not a divisor of the lamp's); ``bands=0``: the whole frame beats."""
    rng = np.random.default_rng(seed)
    h = img.shape[0]
    rows = np.arange(h, dtype=np.float32)[:, None, None]
    out = []
    for k in range(frames):
        phase = 2 * math.pi * drift * k + rng.uniform(0, 0.3)
        light = 1 + depth * np.sin(phase + 2 * math.pi * bands * rows / h)
        f = img.astype(np.float32) * light + rng.normal(0, 1.5, img.shape)
        out.append(np.clip(f, 0, 255).astype(np.uint8))
    return out


def tilted(img: Image, lean: float = 0.35) -> Image:
    """The camera leaning: the far edge of the frame ``lean`` narrower than the near one (the
    table seen in perspective, as a camera tipped some 35 degrees sees it)."""
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    inset = lean * w / 2
    dst = np.float32([[inset, 0], [w - inset, 0], [w, h], [0, h]])
    hmat = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(img, hmat, (w, h), borderMode=cv2.BORDER_REFLECT)
