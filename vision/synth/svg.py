"""Rasterise SVG card artwork with ``rsvg-convert`` (Debian package ``librsvg2-bin``).

The Debian card decks are sprite sheets: one SVG holds every card as an element with an id
(``club_1``, ``king_heart`` ...). ``rsvg-convert --export-id`` draws just that element, but the
canvas it returns is sized from the element's (sometimes bogus) extents, so :func:`render_element`
draws at a zoom and then crops to the ink the element really produced.

>>> available() in (True, False)
True
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

RSVG = "rsvg-convert"

BGRA = npt.NDArray[np.uint8]


class SvgError(RuntimeError):
    """The SVG could not be rendered (tool missing, element missing, empty result)."""


def available() -> bool:
    """True when ``rsvg-convert`` is on the PATH (and ``CRIBBAGE_SYNTH_NO_ARTWORK`` is not set,
    which makes the renderer behave as on a machine without the artwork packages)."""
    if os.environ.get("CRIBBAGE_SYNTH_NO_ARTWORK"):
        return False
    return shutil.which(RSVG) is not None


def _run(args: list[str]) -> BGRA:
    try:
        proc = subprocess.run([RSVG, *args], capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:  # pragma: no cover - environment
        raise SvgError(f"rsvg-convert failed: {exc}") from exc
    if proc.returncode != 0 or not proc.stdout:
        raise SvgError(proc.stderr.decode(errors="replace").strip() or "rsvg-convert failed")
    img = cv2.imdecode(np.frombuffer(proc.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise SvgError("rsvg-convert returned no RGBA image")
    return img


def crop_to_ink(img: BGRA, alpha_min: int = 8) -> BGRA:
    """Crop a BGRA image to the bounding box of its non-transparent pixels.

    >>> a = np.zeros((10, 10, 4), np.uint8); a[2:5, 3:9, 3] = 255
    >>> crop_to_ink(a).shape
    (3, 6, 4)
    """
    mask = img[..., 3] >= alpha_min
    ys = np.flatnonzero(mask.any(axis=1))
    xs = np.flatnonzero(mask.any(axis=0))
    if ys.size == 0:
        raise SvgError("empty render")
    return img[ys[0] : ys[-1] + 1, xs[0] : xs[-1] + 1].copy()


def render_element(path: Path, element_id: str, zoom: float) -> BGRA:
    """Render one element of an SVG sprite sheet at ``zoom``, cropped to its ink."""
    return crop_to_ink(_run(["-i", element_id, "-z", f"{zoom:.5f}", str(path)]))


def render_file(path: Path, width: int) -> BGRA:
    """Render a whole SVG file at ``width`` pixels, cropped to its ink."""
    return crop_to_ink(_run(["-w", str(width), "--keep-aspect-ratio", str(path)]))
