"""Opening photos: decode bytes or a path to BGR pixels, honouring the EXIF orientation of phones.

The header is read first (:func:`read_header`: Pillow reads only the first bytes), and the size
it gives decides how the photo is read (:func:`reduction`):

* up to ``READ_PIXELS`` (40 MP), at its own size;
* a larger JPEG (a 48, 108 or 200 MP phone photo), decoded straight at 1/2, 1/4 or 1/8 of its
  size (libjpeg's scaled decoding), so at most ``READ_PIXELS`` are ever allocated;
* nothing over ``MAX_PIXELS`` (400 MP: no camera's photo, a decompression bomb), and no PNG or
  WebP over ``READ_PIXELS``, which OpenCV can only decode whole: each refused with its real size.

This module imports OpenCV only when it decodes. (The page's upload check, :mod:`web.uploads`,
still refuses photos over 40 MP on its own.)

>>> import cv2, numpy as np
>>> ok, buf = cv2.imencode(".png", np.zeros((4, 6, 3), np.uint8))
>>> load_image(buf.tobytes()).shape
(4, 6, 3)
>>> read_header(buf.tobytes())
Header(format='PNG', width=6, height=4, orientation=1)
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vision.errors import ImageError

if TYPE_CHECKING:
    import numpy as np

READ_PIXELS = 40_000_000
"""The most pixels a photo is read at: a larger JPEG is decoded scaled down to at most this."""
MAX_PIXELS = 400_000_000
"""The largest photo opened at all (twice a 200 MP phone camera's); beyond it, refused unread."""
MAX_BYTES = 50_000_000
SCALES = (1, 2, 4, 8)
"""The reductions OpenCV decodes a JPEG at directly (``IMREAD_REDUCED_COLOR_2`` ... ``_8``)."""
SCALED_FORMATS = frozenset({"JPEG"})
"""Formats decoded at a reduced size without the full image in memory (libjpeg scales as it
decodes); OpenCV decodes any other format whole before it scales."""
EXIF_ORIENTATION = 0x0112
_MAGIC = {b"\x89PNG\r\n\x1a\n": "PNG", b"\xff\xd8\xff": "JPEG"}


@dataclass(frozen=True)
class Header:
    """What an image's header says: its format, its size as stored, and its EXIF orientation."""

    format: str
    width: int
    height: int
    orientation: int = 1

    @property
    def size(self) -> tuple[int, int]:
        """Width and height as the photo is meant to be seen (turned a quarter for 5 to 8).

        >>> Header("JPEG", 80, 60, orientation=6).size
        (60, 80)
        """
        turned = self.orientation in (5, 6, 7, 8)
        return (self.height, self.width) if turned else (self.width, self.height)

    @property
    def pixels(self) -> int:
        """Width times height."""
        return self.width * self.height

    def describe(self) -> str:
        """``'16000x12000 is 192 MP'``: the upright size and the pixel count."""
        width, height = self.size
        return f"{width}x{height} is {megapixels(self.pixels)}"


def megapixels(pixels: int) -> str:
    """A pixel count as people say it: ``'48 MP'``, small ones in pixels.

    >>> megapixels(48_000_000), megapixels(192_000_000), megapixels(400)
    ('48 MP', '192 MP', '400 pixels')
    """
    return f"{round(pixels / 1e6):,} MP" if pixels >= 1_000_000 else f"{pixels:,} pixels"


def _plugin(data: bytes) -> Any:
    """The Pillow image class for ``data``'s format (PNG, JPEG, WebP), or None for another."""
    for magic, fmt in _MAGIC.items():
        if data.startswith(magic):
            if fmt == "PNG":
                from PIL.PngImagePlugin import PngImageFile

                return PngImageFile
            from PIL.JpegImagePlugin import JpegImageFile

            return JpegImageFile
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        from PIL.WebPImagePlugin import WebPImageFile

        return WebPImageFile
    return None


def read_header(data: bytes) -> Header | None:
    """The format, size and EXIF orientation from ``data``'s header, without decoding pixels.

    JPEG, PNG and WebP are read by their Pillow plugin directly, so a size over Pillow's own
    decompression-bomb limit is still read (and then refused here with its real size). Other
    formats go through ``Image.open`` (:class:`ImageError` when it finds one too large to open).
    None when ``data`` is no image Pillow knows.

    >>> read_header(b"just text") is None
    True
    """
    import warnings

    from PIL import Image

    try:
        plugin = _plugin(data)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with plugin(io.BytesIO(data)) if plugin else Image.open(io.BytesIO(data)) as img:
                fmt, (width, height) = img.format or "", img.size
                exif = img.info.get("exif")  # from the header: nothing is decoded
    except Image.DecompressionBombError as exc:  # another format, too large for Pillow to open
        raise ImageError(f"too large: {exc}") from None
    except Exception:  # not an image, or a damaged header
        return None
    return Header(fmt, int(width), int(height), _orientation(exif))


def _orientation(exif: object) -> int:
    """The EXIF orientation tag (1 = upright) from raw EXIF bytes; 1 when absent or unreadable."""
    if not isinstance(exif, bytes | bytearray) or not exif:
        return 1
    try:
        from PIL import Image

        tags = Image.Exif()
        tags.load(bytes(exif))
        value = int(tags.get(EXIF_ORIENTATION, 1))
    except Exception:  # a broken EXIF block is no reason to refuse a photo
        return 1
    return value if 1 <= value <= 8 else 1


def reduction(header: Header, max_pixels: int | None = None) -> int:
    """How many times smaller than its size the photo is read (1, 2, 4 or 8).

    Raises :class:`ImageError` ("too large", with the real size) for a photo over
    ``max_pixels`` (default ``MAX_PIXELS``), or one that cannot be read at ``READ_PIXELS``.

    >>> reduction(Header("JPEG", 8000, 6000)), reduction(Header("JPEG", 12000, 9000))
    (2, 2)
    >>> reduction(Header("JPEG", 16320, 12240)), reduction(Header("PNG", 4000, 3000))
    (4, 1)
    >>> reduction(Header("PNG", 16000, 12000))
    Traceback (most recent call last):
    ...
    vision.errors.ImageError: too large: 16000x12000 is 192 MP, over the 40 MP a PNG is read at (...)
    """
    limit = MAX_PIXELS if max_pixels is None else max_pixels
    if header.pixels > limit:
        raise ImageError(f"too large: {header.describe()}, over the {megapixels(limit)} limit")
    if header.pixels <= READ_PIXELS:
        return 1
    if header.format not in SCALED_FORMATS:
        raise ImageError(f"too large: {header.describe()}, over the {megapixels(READ_PIXELS)} a "
                         f"{header.format or 'photo'} is read at (only a JPEG is read scaled down: "
                         "save it as JPEG)")
    for scale in SCALES:
        if -(-header.width // scale) * -(-header.height // scale) <= READ_PIXELS:
            return scale
    raise ImageError(f"too large: {header.describe()}, more than 1/{SCALES[-1]} of it is over "
                     f"the {megapixels(READ_PIXELS)} a photo is read at")


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


def open_photo(source: str | Path | bytes | bytearray | memoryview) -> Photo:
    """Decode an image file or its bytes, upright as EXIF says, at most ``READ_PIXELS`` read.

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
        scale = reduction(header) if header is not None else 1
    except ImageError as exc:
        raise ImageError(f"{name}: image {exc}") from None
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
             8: cv2.IMREAD_REDUCED_COLOR_8}[scale]
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flags | cv2.IMREAD_IGNORE_ORIENTATION)
    if img is None:
        raise ImageError(f"{name}: not an image OpenCV can decode")
    if img.shape[0] * img.shape[1] > READ_PIXELS:  # a header that lied, or none Pillow read
        raise ImageError(f"{name}: image too large ({img.shape[1]}x{img.shape[0]})")
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
