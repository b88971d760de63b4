"""Synthetic table scenes: rendered cards on procedural tables, with the truth of every index.

Used to train the index classifiers and by the tests. Cards are placed with rotation, scale,
mild perspective and overlap (rows where each card covers most of the one before); lighting,
blur, noise and JPEG are added.

>>> rng = np.random.default_rng(0)
>>> table(rng, 40, 60).shape
(40, 60, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass
class Placed:
    """One card in a scene: its name and the 3x3 homography from card pixels to scene pixels."""

    name: str
    h: np.ndarray
    size: tuple[int, int]  # card width, height in its own pixels


@dataclass
class Scene:
    """A rendered scene and what lies on it (last placed card on top)."""

    image: np.ndarray
    cards: list[Placed] = field(default_factory=list)
    layout: str = "loose"


def table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table surface: wood grain, felt or cloth in a random colour, light or dark."""
    base = rng.uniform(30, 235, 3)
    if rng.random() < 0.5:  # wood-like: a warm tone with grain along one axis
        base = np.array([rng.uniform(60, 190), rng.uniform(90, 210), rng.uniform(120, 240)])
    img = np.ones((h, w, 3), np.float32) * base
    kind = rng.integers(3)
    if kind == 0:
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        f = rng.uniform(0.02, 0.2)
        grain = np.sin(y * f + 3 * np.sin(x * rng.uniform(0.002, 0.01)) + rng.normal(0, 0.3, (h, 1)))
        img += grain[..., None] * rng.uniform(4, 25)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), rng.uniform(0.5, 4))
    img += noise[..., None] * rng.uniform(2, 25)
    if kind == 1:  # some blotches/knots
        for _ in range(rng.integers(0, 4)):
            cv2.ellipse(img, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                        (int(rng.uniform(5, 40)), int(rng.uniform(3, 20))), float(rng.uniform(0, 180)),
                        0, 360, (base * rng.uniform(0.6, 0.9)).tolist(), -1)
    return np.clip(img, 0, 255).astype(np.uint8)


def place(
    scene: np.ndarray, card: np.ndarray, center: tuple[float, float], width: float, angle: float,
    rng: np.random.Generator, tilt: float = 0.08,
) -> np.ndarray:
    """Draw ``card`` (BGRA) onto ``scene`` in place; returns the card → scene homography."""
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


TEXT_CHARS = "AKQJ1023456789 10 ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz:.-"


def printed_matter(img: np.ndarray, rng: np.random.Generator) -> None:
    """A phone screen, score pad or note: a light panel with lines of text and a few dots, drawn
    in place. Nothing on it is a card index (a reader must learn letters are not pips)."""
    h, w = img.shape[:2]
    pw, ph = int(rng.uniform(120, 300)), int(rng.uniform(160, 420))
    x0, y0 = int(rng.uniform(0, max(1, w - pw))), int(rng.uniform(0, max(1, h - ph)))
    if rng.random() < 0.5:  # a phone: dark body round a light screen
        cv2.rectangle(img, (x0 - 12, y0 - 25), (x0 + pw + 12, y0 + ph + 25), (25, 25, 25), -1)
    cv2.rectangle(img, (x0, y0), (x0 + pw, y0 + ph), tuple(float(v) for v in rng.uniform(215, 250, 3)), -1)
    scale = rng.uniform(0.4, 1.1)
    font = int(rng.choice([0, 1, 2, 3, 4, 6]))
    y = y0 + 30 * scale
    while y < y0 + ph - 5:
        text = "".join(rng.choice(list(TEXT_CHARS), size=int(rng.integers(2, 9))))
        colour = (30, 30, 30) if rng.random() < 0.7 else tuple(float(v) for v in rng.uniform(0, 200, 3))
        cv2.putText(img, text, (x0 + 5, int(y)), font, scale, colour, max(1, int(scale * 2.5)), cv2.LINE_AA)
        if rng.random() < 0.3:
            cv2.circle(img, (int(x0 + rng.uniform(10, pw - 10)), int(y + 10 * scale)), int(8 * scale),
                       colour, -1)
        y += rng.uniform(26, 45) * scale


def finish(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Lighting gradient, a glare spot, a colour cast, blur, noise and JPEG."""
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    gx = np.linspace(-1, 1, w)[None, :] * rng.uniform(-0.25, 0.25)
    gy = np.linspace(-1, 1, h)[:, None] * rng.uniform(-0.25, 0.25)
    f *= (1 + gx + gy)[..., None]
    f *= rng.uniform(0.85, 1.15, 3) if rng.random() < 0.7 else rng.uniform(0.55, 1.3, 3)
    if rng.random() < 0.25:  # haze: a plastic window or a low-contrast webcam
        f = f * rng.uniform(0.5, 0.8) + rng.uniform(40, 110)
    if rng.random() < 0.3:
        mask = np.zeros((h, w), np.float32)
        cv2.circle(mask, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), int(rng.uniform(20, 200)), 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 30)
        f += mask[..., None] * rng.uniform(30, 120)
    f = np.clip(f * rng.uniform(0.6, 1.1) + rng.uniform(-10, 20), 0, 255)
    sigma = rng.uniform(0, 1.2)
    if sigma > 0.3:
        f = cv2.GaussianBlur(f, (0, 0), sigma)
    f += rng.normal(0, rng.uniform(0, 6), f.shape)
    out = np.clip(f, 0, 255).astype(np.uint8)
    _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(55, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def random_scene(
    rng: np.random.Generator, deck: dict[str, np.ndarray], h: int = 720, w: int = 960, n: int = 6,
) -> Scene:
    """A table with ``n`` cards: loose, in an overlapping row, or fanned; sometimes a card back."""
    img = table(rng, h, w)
    scene = Scene(img)
    names = [k for k in deck if k != "back"]
    chosen = list(rng.choice(names, size=n, replace=False))
    width = float(rng.uniform(60, min(260, w / 3)))
    layout = rng.integers(3)
    scene.layout = ("loose", "row", "fan")[int(layout)]
    base_angle = float(rng.uniform(0, 360))
    ch_ratio = 1.45
    if layout == 0:  # loose
        for name in chosen:
            c = (rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h)
            hm = place(img, deck[name], c, width, float(rng.uniform(0, 360)), rng)
            scene.cards.append(Placed(name, hm, deck[name].shape[1::-1]))
    else:  # overlapping row (1) or fan (2)
        a = np.radians(base_angle)
        step = width * rng.uniform(0.22, 0.4)
        start = np.array([w / 2, h / 2]) - np.array([np.cos(a), np.sin(a)]) * step * n / 2
        for k, name in enumerate(chosen):
            c = start + np.array([np.cos(a), np.sin(a)]) * step * k
            ang = base_angle + (rng.uniform(-4, 4) if layout == 1 else (k - n / 2) * rng.uniform(4, 10))
            if layout == 2:
                c = c + np.array([-np.sin(a), np.cos(a)]) * abs(k - n / 2) * width * 0.05 * ch_ratio
            hm = place(img, deck[name], (float(c[0]), float(c[1])), width, ang, rng)
            scene.cards.append(Placed(name, hm, deck[name].shape[1::-1]))
    if rng.random() < 0.35:
        printed_matter(img, rng)
    if rng.random() < 0.3:
        c = (rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h)
        hm = place(img, deck["back"], c, width, float(rng.uniform(0, 360)), rng)
        scene.cards.append(Placed("back", hm, deck["back"].shape[1::-1]))
    scene.image = finish(img, rng)
    return scene


def top_card(scene: Scene, x: float, y: float) -> tuple[Placed, float, float] | None:
    """The card on top at scene point (x, y) and the point in that card's own pixels."""
    for placed in reversed(scene.cards):
        inv = np.linalg.inv(placed.h)
        p = inv @ np.array([x, y, 1.0])
        u, v = p[0] / p[2], p[1] / p[2]
        if 0 <= u < placed.size[0] and 0 <= v < placed.size[1]:
            return placed, float(u), float(v)
    return None
