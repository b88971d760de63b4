"""Hand-placed scenes for tests and benchmarks: put named cards exactly where a test wants them.

:func:`vision.synth.scene.render_scene` draws random layouts for training; the tests instead need
"the seven of hearts at (640, 360), turned 37 degrees". ``table_image`` gives a table,
``place`` puts one card face (BGRA, from any :class:`vision.synth.decks.Deck`) on it, and
``finish`` adds room light (gradient, cast, optional glare), blur, noise and JPEG; ``mild`` adds
only gentle room light; ``cropped`` makes a face a photo of the card cropped to its edges.
``drawn_table`` does it all for a list of cards of an OpenCV-drawn deck
(no card art needed: what the project's own tests read).

>>> from vision.synth.decks import procedural_deck
>>> rng = np.random.default_rng(0)
>>> img = table_image(rng, 240, 320)
>>> hm = place(img, procedural_deck(7).render("7H", 80), (160, 120), 80, 30, rng)
>>> img.shape, hm.shape
((240, 320, 3), (3, 3))
>>> drawn_table([("5H", 200, 150, 0), ("KS", 420, 150, 15)], width=120, size=(300, 640)).shape
(300, 640, 3)
"""

from __future__ import annotations

import cv2
import numpy as np

from cribbage.cards import RANKS, SUITS
from vision.synth.decks import Deck, procedural_deck
from vision.synth.tables import table


def table_image(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A table surface (BGR uint8, h x w): wood, felt, cloth, play mat, laminate or a gradient."""
    surface, _ = table(rng, (w, h), kind)
    return np.clip(surface * 255 + 0.5, 0, 255).astype(np.uint8)


def place(
    scene: np.ndarray, card: np.ndarray, center: tuple[float, float], width: float, angle: float,
    rng: np.random.Generator, tilt: float = 0.08,
) -> np.ndarray:
    """Draw ``card`` (BGRA) onto ``scene`` in place, ``width`` px wide, turned ``angle`` degrees,
    its corners jittered by ``tilt`` (mild perspective); returns the card → scene homography."""
    ch, cw = card.shape[:2]
    s = width / cw
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    pts = (src - [cw / 2, ch / 2]) * s
    pts = pts * (1 + rng.uniform(-tilt, tilt, (4, 1)))
    dst = (pts @ rot.T + center).astype(np.float32)
    hmat = cv2.getPerspectiveTransform(src, dst)
    hh, ww = scene.shape[:2]
    warped = cv2.warpPerspective(card, hmat, (ww, hh), flags=cv2.INTER_AREA, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    scene[:] = (scene * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)
    return hmat


def finish(img: np.ndarray, rng: np.random.Generator, glare: bool = True) -> np.ndarray:
    """Lighting gradient, a colour cast, sometimes a glare spot, slight blur, noise and JPEG."""
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    gx = np.linspace(-1, 1, w)[None, :] * rng.uniform(-0.2, 0.2)
    gy = np.linspace(-1, 1, h)[:, None] * rng.uniform(-0.2, 0.2)
    f *= (1 + gx + gy)[..., None]
    f *= rng.uniform(0.88, 1.12, 3)
    if glare and rng.random() < 0.3:
        mask = np.zeros((h, w), np.float32)
        cv2.circle(mask, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), int(rng.uniform(20, 200)), 1.0, -1)
        f += cv2.GaussianBlur(mask, (0, 0), 30)[..., None] * rng.uniform(30, 90)
    sigma = rng.uniform(0.3, 0.9)
    f = cv2.GaussianBlur(f, (0, 0), sigma) + rng.normal(0, rng.uniform(1, 4), f.shape)
    out = np.clip(f, 0, 255).astype(np.uint8)
    _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(70, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def cropped(face: np.ndarray, paper: int = 255) -> np.ndarray:
    """A card face (BGRA, as a deck renders it) as a photo of the card cropped to its edges: BGR,
    its rounded corners (transparent) filled with ``paper``.

    >>> face = np.zeros((4, 3, 4), np.uint8); face[1:3, :, 3] = 255  # black, the corners clear
    >>> cropped(face)[:, 0, 0].tolist()
    [255, 0, 0, 255]
    """
    a = face[..., 3:4] / 255.0
    return (face[..., :3] * a + paper * (1 - a)).astype(np.uint8)


def mild(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Room light: a soft gradient, slight blur, sensor noise and JPEG (no haze or heavy cast)."""
    _h, w = img.shape[:2]
    f = img.astype(np.float32) * (1 + np.linspace(-0.1, 0.1, w)[None, :, None])
    f = cv2.GaussianBlur(f, (0, 0), 0.7) + rng.normal(0, 3, f.shape)
    _ok, buf = cv2.imencode(".jpg", np.clip(f, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def drawn_table(cards: list[tuple[str, float, float, float]], width: float = 150, seed: int = 7,
                style: int = 7, size: tuple[int, int] = (720, 1280),
                back: tuple[float, float] | None = None, table: str | None = None) -> np.ndarray:
    """A table (``size``: height, width) with the given cards of drawn style ``style``, each
    (name, centre x, centre y, angle in degrees), ``width`` px wide, in the order given (each
    covers the ones before); ``back``: a card back's centre; ``table``: its surface
    (:func:`vision.synth.tables.table`'s kinds, or ``"denim"``), a random one by default. Style 7
    is one the network never trained on (it is in the ``val`` split)."""
    rng = np.random.default_rng(seed)
    deck = procedural_deck(style)
    img = table_image(rng, *size, table)
    for name, x, y, angle in cards:
        place(img, deck.render(name, 2 * int(width)), (x, y), width, angle, rng, tilt=0.03)
    if back is not None:
        place(img, deck.back(2 * int(width)), back, width, 20, rng, tilt=0.03)
    return mild(img, rng)


def suit_photos(deck: Deck, seed: int = 5) -> list[tuple[str, np.ndarray]]:
    """Four 1600x900 photos of ``deck``'s suits, as a player photographs a deck once to teach it
    (``crib vision teach``): each suit's 13 cards apart, face up, 150 px wide, in two rows on a
    table, in room light without glare. Each photo is named by its suit (S H D C).

    >>> [(name, img.shape) for name, img in suit_photos(procedural_deck(7))][:2]
    [('S', (900, 1600, 3)), ('H', (900, 1600, 3))]
    """
    rng = np.random.default_rng(seed)
    photos = []
    for suit in SUITS:
        img = table_image(rng, 900, 1600)
        for k, rank in enumerate(RANKS):
            place(img, deck.render(rank + suit, 300), (130 + (k % 7) * 210, 220 + (k // 7) * 420), 150,
                  float(rng.uniform(-8, 8)), rng, tilt=0.03)
        photos.append((suit, finish(img, rng, glare=False)))
    return photos


def seen_at_angle(top: np.ndarray, tilt: float, size: tuple[int, int] = (1280, 800),
                  fov: float = 62.0) -> tuple[np.ndarray, np.ndarray]:
    """A table drawn from straight above (``top``) as a camera ``size`` (width, height) with a
    horizontal field of view of ``fov`` degrees sees it from ``tilt`` degrees off the vertical,
    pulled back over the near (bottom) edge and aimed at the table's centre, from a height at which
    a camera looking straight down would see the drawing's whole width: the far side smaller and
    squeezed, the near side larger. Returns the photo and the homography drawing → photo.

    >>> top = np.full((400, 600, 3), 200, np.uint8)
    >>> photo, hm = seen_at_angle(top, 0.0, (300, 200))
    >>> middle = cv2.perspectiveTransform(np.float32([[[300, 200]]]), hm)[0, 0]
    >>> photo.shape, [round(float(v), 2) for v in middle]
    ((200, 300, 3), [150.0, 100.0])
    >>> _, hm = seen_at_angle(top, 40.0, (300, 200))
    >>> far, near = cv2.perspectiveTransform(np.float32([[[0, 100], [0, 300]]]), hm)[0, :, 0]
    >>> bool(far > near)  # the far left edge is drawn nearer the middle
    True
    """
    h, w = top.shape[:2]
    f = (size[0] / 2) / np.tan(np.radians(fov) / 2)
    dist = f * w / size[0]
    t = np.radians(tilt)
    # the table's axes: x to the right, y down the drawing, z into the table
    centre = np.array([0.0, dist * np.sin(t), -dist * np.cos(t)])
    axes = np.array([[1.0, 0.0, 0.0], [0.0, np.cos(t), np.sin(t)], [0.0, -np.sin(t), np.cos(t)]])
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    table = np.column_stack([corners - [w / 2, h / 2], np.zeros(4)])
    cam = (table - centre) @ axes.T
    seen = np.float32(np.column_stack([f * cam[:, 0] / cam[:, 2] + size[0] / 2,
                                       f * cam[:, 1] / cam[:, 2] + size[1] / 2]))
    hm = cv2.getPerspectiveTransform(corners, seen)
    photo = cv2.warpPerspective(top, hm, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return photo, hm
