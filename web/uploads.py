"""Photo uploads: images only, size and pixel count capped, stored under names the server picks.

The header is read (Pillow reads only the first bytes) before anything is decoded, so a
decompression bomb, a tiny file claiming 50 000 × 50 000 pixels, is refused without decoding it.

>>> import io
>>> from PIL import Image
>>> buf = io.BytesIO(); Image.new("RGB", (40, 30)).save(buf, "PNG")
>>> check_image(buf.getvalue(), max_pixels=10_000)
ImageInfo(format='PNG', width=40, height=30, extension='.png')
>>> check_image(b"GIF89a not really")
Traceback (most recent call last):
...
web.uploads.UploadError: not an image the table can read (JPEG, PNG or WebP)
"""

from __future__ import annotations

import io
import re
import secrets
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

ALLOWED_FORMATS = {"JPEG": ".jpg", "PNG": ".png", "WEBP": ".webp"}
DEFAULT_MAX_PIXELS = 40_000_000
"""40 megapixels: more than any phone camera, a fraction of a bomb."""
EXIF_ORIENTATION = 0x0112
PHOTO_NAME = re.compile(r"^[0-9a-f]{32}\.(jpg|png|webp)$")


class UploadError(ValueError):
    """An upload the table refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class ImageInfo:
    """What the header says: format, and the size as shown upright (EXIF orientation applied)."""

    format: str
    width: int
    height: int
    extension: str


def check_image(data: bytes, max_pixels: int = DEFAULT_MAX_PIXELS) -> ImageInfo:
    """Check ``data`` is a JPEG, PNG or WebP of at most ``max_pixels`` without decoding it."""
    if not data:
        raise UploadError("the photo is empty")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                fmt, (width, height) = img.format or "", img.size
                exif = img.info.get("exif")  # from the header: nothing is decoded
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning,
            OSError, ValueError, SyntaxError) as exc:
        if isinstance(exc, Image.DecompressionBombError | Image.DecompressionBombWarning):
            raise UploadError("the photo has too many pixels", 413) from exc
        raise UploadError("not an image the table can read (JPEG, PNG or WebP)", 415) from exc
    if fmt not in ALLOWED_FORMATS:
        raise UploadError("not an image the table can read (JPEG, PNG or WebP)", 415)
    if width < 1 or height < 1:
        raise UploadError("the photo has no pixels")
    if width * height > max_pixels:
        raise UploadError(
            f"the photo is {width}×{height}: more than {max_pixels // 1_000_000} megapixels", 413
        )
    if _orientation(exif) in (5, 6, 7, 8):  # shown turned a quarter: the page sees it upright
        width, height = height, width
    return ImageInfo(fmt, width, height, ALLOWED_FORMATS[fmt])


def _orientation(exif: object) -> int:
    """The EXIF orientation tag (1 = upright) from raw EXIF bytes; 1 when absent or unreadable."""
    if not isinstance(exif, bytes | bytearray) or not exif:
        return 1
    try:
        tags = Image.Exif()
        tags.load(bytes(exif))
        return int(tags.get(EXIF_ORIENTATION, 1))
    except Exception:  # a broken EXIF block is no reason to refuse a photo
        return 1


def store_photo(folder: Path, data: bytes, info: ImageInfo) -> str:
    """Write ``data`` into ``folder`` under a random name; return that name."""
    folder.mkdir(parents=True, exist_ok=True)
    # 16 hex digits of the time, then 16 random ones: unguessable, and in the order taken
    name = f"{time.time_ns():016x}{secrets.token_hex(8)}{info.extension}"
    (folder / name).write_bytes(data)
    return name


def prune_photos(folder: Path, keep: int) -> int:
    """Delete all but the newest ``keep`` stored photos (server-named files only); how many went.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for k in range(3):
    ...     _ = store_photo(d, b"x", ImageInfo("PNG", 1, 1, ".png"))
    >>> prune_photos(d, keep=2), len(list(d.iterdir()))
    (1, 2)
    """
    photos = sorted((p for p in folder.glob("*") if PHOTO_NAME.match(p.name)),
                    key=lambda p: p.name, reverse=True)
    gone = 0
    for old in photos[keep:]:
        old.unlink(missing_ok=True)
        gone += 1
    return gone


def photo_path(folder: Path, name: str) -> Path | None:
    """The stored photo called ``name``, or ``None`` if the name is not one the server made.

    >>> photo_path(Path("/tmp"), "../etc/passwd") is None
    True
    """
    if not PHOTO_NAME.match(name):
        return None
    path = folder / name
    return path if path.is_file() else None
