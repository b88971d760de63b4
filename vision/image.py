"""Opening photos: decode bytes or a path to BGR pixels, honouring the EXIF orientation of phones.

The header is read first and the pixel budget (:mod:`imaging.limits`, shared with the page's
upload check) decides how the photo is read: at its own size up to 40 MP, a larger JPEG decoded
straight at 1/2, 1/4 or 1/8 of its size, and anything that cannot be read within the budget
refused with its real size. A caller that reads at a smaller size anyway (the card reader reads
at most 1600 pixels across) asks for that size (``side``): a JPEG is decoded smaller still, and
any photo is shrunk to it as soon as it is decoded.

This module imports OpenCV only when it decodes.

>>> import cv2, numpy as np
>>> ok, buf = cv2.imencode(".png", np.zeros((4, 6, 3), np.uint8))
>>> load_image(buf.tobytes()).shape
(4, 6, 3)
>>> read_header(buf.tobytes())
Header(format='PNG', width=6, height=4, orientation=1)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from imaging import limits
from imaging.limits import READ_PIXELS, SCALED_FORMATS, SCALES, Header, TooLarge, megapixels
from vision.errors import ImageError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Header", "ImageError", "Photo", "load_image", "megapixels", "open_photo", "read_header",
           "reduction"]

MAX_BYTES = 50_000_000


def read_header(data: bytes) -> Header | None:
    """:func:`imaging.limits.read_header`, refusing with :class:`ImageError`.

    >>> read_header(b"just text") is None
    True
    """
    try:
        return limits.read_header(data)
    except TooLarge as exc:
        raise ImageError(str(exc)) from None


def reduction(header: Header, max_pixels: int | None = None, side: int | None = None) -> int:
    """How many times smaller than its size the photo is read (1, 2, 4 or 8): the budget's
    (:func:`imaging.limits.reduction`, refusing with :class:`ImageError`), or for a JPEG more,
    while its long side stays at least ``side``.

    >>> reduction(Header("JPEG", 8000, 6000)), reduction(Header("JPEG", 4032, 3024), side=1600)
    (2, 2)
    >>> reduction(Header("PNG", 4032, 3024), side=1600), reduction(Header("JPEG", 1600, 1200), side=1600)
    (1, 1)
    >>> reduction(Header("PNG", 16000, 12000))
    Traceback (most recent call last):
    ...
    vision.errors.ImageError: too large: 16000x12000 is 192 MP, over the 40 MP a PNG is read at (...)
    """
    try:
        scale = limits.reduction(header, max_pixels)
    except TooLarge as exc:
        raise ImageError(str(exc)) from None
    if side is None or header.format not in SCALED_FORMATS:
        return scale
    longest = max(header.width, header.height)
    return max([s for s in SCALES if s >= scale and -(-longest // s) >= side], default=scale)


def _apply_orientation(img: np.ndarray, orientation: int) -> np.ndarray:
    """Turn pixels stored as the camera held them to the way the photo is meant to be seen."""
    import cv2

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


@dataclass(frozen=True)
class Photo:
    """A photo as read: its ``pixels`` (BGR, upright, scaled down if it was over ``READ_PIXELS``)
    and the photo's own upright ``width`` and ``height``."""

    pixels: np.ndarray
    width: int
    height: int

    @property
    def scale(self) -> float:
        """The photo's size over the size it was read at: 1.0, or 2.0 ... 8.0 when scaled down."""
        return self.width / self.pixels.shape[1] if self.pixels.shape[1] else 1.0

    def reading_json(self, reading: Any, image_path: str | None = None) -> dict[str, Any]:
        """``reading`` (a :class:`vision.reader.Reading` of :attr:`pixels`) as the detect JSON,
        with the photo's own size and every centre and corner in the photo's own pixels."""
        out: dict[str, Any] = reading.to_json(image_path, self.width, self.height)
        if self.scale != 1.0:
            s = self.scale
            for entry in (*out["cards"], *out["unreadable"]):
                entry["center"] = [round(v * s, 1) for v in entry["center"]]
                if entry.get("quad"):
                    entry["quad"] = [[round(v * s, 1) for v in point] for point in entry["quad"]]
        return out


def open_photo(source: str | Path | bytes | bytearray | memoryview, side: int | None = None) -> Photo:
    """Decode an image file or its bytes, upright as EXIF says, at most ``READ_PIXELS`` read.

    ``side``: the long side the caller reads at; a photo larger than that comes back that size
    (a JPEG decoded straight at the smallest size still at least ``side`` across, see
    :func:`reduction`, then any photo shrunk as soon as it is decoded, so that a 40 MP one is
    held whole only for that moment).
    Raises :class:`ImageError` for a missing file, bytes that are no image, or an image too
    large to read (see the module text).
    """
    import cv2
    import numpy as np

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
    try:
        header = read_header(data)
        scale = reduction(header, side=side) if header is not None else 1
    except ImageError as exc:
        raise ImageError(f"{name}: image {exc}") from None
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
             8: cv2.IMREAD_REDUCED_COLOR_8}[scale]
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flags | cv2.IMREAD_IGNORE_ORIENTATION)
    if img is None:
        raise ImageError(f"{name}: not an image OpenCV can decode")
    if img.shape[0] * img.shape[1] > READ_PIXELS:  # a header that lied, or none Pillow read
        raise ImageError(f"{name}: image too large ({img.shape[1]}x{img.shape[0]})")
    longest = max(img.shape[:2])
    if side is not None and longest > side:
        f = side / longest
        size = (max(1, round(img.shape[1] * f)), max(1, round(img.shape[0] * f)))
        img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)  # the whole decode goes now
    orientation = header.orientation if header is not None else 1
    img = _apply_orientation(img, orientation)
    if header is not None:
        width, height = header.size
    else:
        height, width = img.shape[:2]
    return Photo(img, width, height)


def load_image(source: str | Path | bytes | bytearray | memoryview) -> np.ndarray:
    """The pixels of :func:`open_photo`: BGR ``uint8``, upright, scaled down past ``READ_PIXELS``.

    >>> load_image(".")
    Traceback (most recent call last):
    ...
    vision.errors.ImageError: .: a folder, not an image
    """
    return open_photo(source).pixels
