"""Opening photos: decode bytes or a path to BGR pixels, honouring the EXIF orientation of phones.

>>> import cv2, numpy as np
>>> ok, buf = cv2.imencode(".png", np.zeros((4, 6, 3), np.uint8))
>>> load_image(buf.tobytes()).shape
(4, 6, 3)
"""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError

MAX_PIXELS = 40_000_000
MAX_BYTES = 50_000_000


def _exif_orientation(data: bytes) -> int:
    """The EXIF orientation tag (1 = upright) of JPEG/TIFF bytes, 1 when absent or unreadable."""
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as im:
            return int(im.getexif().get(0x0112, 1) or 1)
    except Exception:
        return 1


def _apply_orientation(img: np.ndarray, orientation: int) -> np.ndarray:
    """Turn pixels stored as the camera held them to the way the photo is meant to be seen."""
    if orientation == 2:
        return cv2.flip(img, 1)
    if orientation == 3:
        return cv2.rotate(img, cv2.ROTATE_180)
    if orientation == 4:
        return cv2.flip(img, 0)
    if orientation == 5:
        return cv2.flip(cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), 1)
    if orientation == 6:
        return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 7:
        return cv2.flip(cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE), 1)
    if orientation == 8:
        return cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return img


def _header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the header (Pillow) without decoding the pixels; None if unknown."""
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as im:
            return int(im.width), int(im.height)
    except Image.DecompressionBombError:
        return MAX_PIXELS + 1, 1  # Pillow refuses even to open it: far over the limit
    except Exception:
        return None


def load_image(source: str | Path | bytes | bytearray | memoryview) -> np.ndarray:
    """Decode an image file or its bytes to a BGR ``uint8`` array, upright as EXIF says.

    Raises :class:`ImageError` for a missing file, bytes that are no image, or an image over
    ``MAX_PIXELS`` pixels.

    >>> load_image(".")
    Traceback (most recent call last):
    ...
    vision.errors.ImageError: .: a folder, not an image
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), "the upload"
    else:
        path = Path(source)
        name = str(path)
        if path.is_dir():
            raise ImageError(f"{name}: a folder, not an image")
        if not path.is_file():
            raise ImageError(f"{name}: no such file")
        if path.stat().st_size > MAX_BYTES:
            raise ImageError(f"{name}: file too large ({path.stat().st_size} bytes, at most {MAX_BYTES})")
        data = path.read_bytes()
    if not data:
        raise ImageError(f"{name}: empty file, not an image")
    if len(data) > MAX_BYTES:
        raise ImageError(f"{name}: too large ({len(data)} bytes, at most {MAX_BYTES})")
    size = _header_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageError(f"{name}: image too large ({size[0]}x{size[1]}, at most {MAX_PIXELS} pixels)")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if img is None:
        raise ImageError(f"{name}: not an image OpenCV can decode")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:
        raise ImageError(f"{name}: image too large ({img.shape[1]}x{img.shape[0]})")
    return _apply_orientation(img, _exif_orientation(data))
