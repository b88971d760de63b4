"""The pixel budget: how large a photo is read, and what is refused unread.

The header is read first (:func:`read_header`: Pillow reads only the first bytes), and the size
it gives decides how the photo is read (:func:`reduction`):

* up to ``READ_PIXELS`` (40 MP), at its own size;
* a larger JPEG (a 48, 108 or 200 MP phone photo), decoded straight at 1/2, 1/4 or 1/8 of its
  size (libjpeg's scaled decoding), so at most ``READ_PIXELS`` are ever allocated;
* nothing over ``MAX_PIXELS`` (400 MP: no camera's photo, a decompression bomb), and no PNG or
  WebP over ``READ_PIXELS``, which OpenCV can only decode whole: each refused with its real size.

The page checks an upload with it before storing or reading it (:mod:`web.uploads`); the card
reader decodes with it (:func:`vision.image.open_photo`). This module imports Pillow only.

>>> import io
>>> from PIL import Image
>>> buf = io.BytesIO(); Image.new("RGB", (6, 4)).save(buf, "PNG")
>>> read_header(buf.getvalue())
Header(format='PNG', width=6, height=4, orientation=1)
>>> reduction(Header("JPEG", 8000, 6000))  # a 48 MP phone photo: read at half its size
2
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Any

READ_PIXELS = 40_000_000
"""The most pixels a photo is read at: a larger JPEG is decoded scaled down to at most this."""
MAX_PIXELS = 400_000_000
"""The largest photo opened at all (twice a 200 MP phone camera's); beyond it, refused unread."""
SCALES = (1, 2, 4, 8)
"""The reductions OpenCV decodes a JPEG at directly (``IMREAD_REDUCED_COLOR_2`` ... ``_8``)."""
SCALED_FORMATS = frozenset({"JPEG"})
"""Formats decoded at a reduced size without the full image in memory (libjpeg scales as it
decodes); OpenCV decodes any other format whole before it scales."""
EXIF_ORIENTATION = 0x0112
_MAGIC = {b"\x89PNG\r\n\x1a\n": "PNG", b"\xff\xd8\xff": "JPEG"}


class TooLarge(ValueError):
    """A photo over the pixel budget; the message names its real size."""


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
    decompression-bomb limit is still read (and then refused by :func:`reduction` with its real
    size). Other formats go through ``Image.open`` (:class:`TooLarge` when it finds one too large
    to open). None when ``data`` is no image Pillow knows.

    >>> read_header(b"just text") is None
    True
    """
    from PIL import Image

    try:
        plugin = _plugin(data)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with plugin(io.BytesIO(data)) if plugin else Image.open(io.BytesIO(data)) as img:
                fmt, (width, height) = img.format or "", img.size
                exif = img.info.get("exif")  # from the header: nothing is decoded
    except Image.DecompressionBombError as exc:  # another format, too large for Pillow to open
        raise TooLarge(f"too large: {exc}") from None
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

    Raises :class:`TooLarge` (with the real size) for a photo over ``max_pixels`` (default
    ``MAX_PIXELS``), or one that cannot be read within ``READ_PIXELS``.

    >>> reduction(Header("JPEG", 8000, 6000)), reduction(Header("JPEG", 12000, 9000))
    (2, 2)
    >>> reduction(Header("JPEG", 16320, 12240)), reduction(Header("PNG", 4000, 3000))
    (4, 1)
    >>> reduction(Header("PNG", 16000, 12000))
    Traceback (most recent call last):
    ...
    imaging.limits.TooLarge: too large: 16000x12000 is 192 MP, over the 40 MP a PNG is read at (...)
    """
    limit = MAX_PIXELS if max_pixels is None else max_pixels
    if header.pixels > limit:
        raise TooLarge(f"too large: {header.describe()}, over the {megapixels(limit)} limit")
    if header.pixels <= READ_PIXELS:
        return 1
    if header.format not in SCALED_FORMATS:
        raise TooLarge(f"too large: {header.describe()}, over the {megapixels(READ_PIXELS)} a "
                       f"{header.format or 'photo'} is read at (only a JPEG is read scaled down: "
                       "save it as JPEG)")
    for scale in SCALES:
        if -(-header.width // scale) * -(-header.height // scale) <= READ_PIXELS:
            return scale
    raise TooLarge(f"too large: {header.describe()}, more than 1/{SCALES[-1]} of it is over "
                   f"the {megapixels(READ_PIXELS)} a photo is read at")
