"""Camera and room effects: light falloff, glare, vignetting, colour cast, blur, noise, JPEG.

>>> rng = np.random.default_rng(1)
>>> out = photo_effects(rng, np.full((40, 60, 3), 0.5, np.float32))
>>> out.shape, out.dtype
((40, 60, 3), dtype('uint8'))
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]


def _light_field(rng: np.random.Generator, w: int, h: int) -> F32:
    sw, sh = 32, max(2, round(32 * h / w))
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx /= sw
    yy /= sh
    ang = rng.uniform(0, 2 * np.pi)
    grad = (xx - 0.5) * np.cos(ang) + (yy - 0.5) * np.sin(ang)
    field = 1.0 + rng.uniform(0, 0.5) * grad
    v = rng.uniform(0, 0.45)  # vignetting
    r2 = (xx - 0.5) ** 2 + (yy - 0.5) ** 2
    field *= 1 - v * r2 * 2
    field *= rng.uniform(0.65, 1.15)  # exposure
    return cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def _glare(rng: np.random.Generator, w: int, h: int) -> F32:
    """Smooth glare spots, computed at a quarter of the size (they are smooth) and enlarged."""
    full_w, full_h = w, h
    w, h = max(2, w // 4), max(2, h // 4)
    out = np.zeros((h, w), np.float32)
    for _ in range(rng.integers(0, 3)):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.03, 0.25) * w, rng.uniform(0.03, 0.25) * h
        yy, xx = np.ogrid[0:h, 0:w]
        out += rng.uniform(0.15, 0.9) * np.exp(
            -(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2
        ).astype(np.float32)
    return cv2.resize(out, (full_w, full_h), interpolation=cv2.INTER_LINEAR)


def photo_effects(
    rng: np.random.Generator,
    img: F32,
    card_mask: npt.NDArray[np.bool_] | None = None,
    strength: float = 1.0,
) -> npt.NDArray[np.uint8]:
    """Apply room light and camera effects to a float32 BGR image in 0..1; return uint8 BGR
    (JPEG-compressed). Glare is stronger on the glossy cards (``card_mask``)."""
    h, w = img.shape[:2]
    out = img * _light_field(rng, w, h)[..., None]
    glare = _glare(rng, w, h) * strength
    if card_mask is not None:
        glare = glare * np.where(card_mask, 1.0, 0.45).astype(np.float32)
    out = out + glare[..., None]
    cast = rng.uniform(1 - 0.15 * strength, 1 + 0.15 * strength, 3).astype(np.float32)
    out = out * cast
    gamma = rng.uniform(0.8, 1.25)
    out = np.clip(out, 0, 1) ** gamma
    r = rng.random()
    if r < 0.45:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.8) * strength + 1e-3)
    elif r < 0.6:
        n = int(rng.integers(3, 12))
        k = np.zeros((n, n), np.float32)
        k[n // 2, :] = 1.0 / n
        rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)), 1.0)
        k = cv2.warpAffine(k, rot, (n, n))
        out = cv2.filter2D(out, -1, k / max(1e-6, float(k.sum())))
    sigma = rng.uniform(0.0, 0.035) * strength
    noise = rng.standard_normal(out.shape, dtype=np.float32) * sigma * np.sqrt(np.clip(out, 0.02, 1))
    out = np.clip(out + noise, 0, 1)
    u8 = (out * 255 + 0.5).astype(np.uint8)
    q = int(rng.integers(35, 96))
    ok, buf = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else u8
