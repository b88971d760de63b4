"""Photo uploads: images only, within the pixel budget, whole, stored under names the server picks.

The header is read (Pillow reads only the first bytes) before anything is decoded, and the pixel
budget of :mod:`imaging.limits` (the card reader's own) applies: a JPEG over 40 MP is taken (the
reader decodes it scaled down), a PNG or WebP over 40 MP, or anything over 400 MP, is refused
unread with its real size, so a decompression bomb (a tiny file claiming 50 000 × 50 000 pixels)
is never decoded. The bytes are then checked whole (:func:`check_whole`): a photo cut short in
its upload is refused, not stored.

>>> import io
>>> from PIL import Image
>>> buf = io.BytesIO(); Image.new("RGB", (40, 30)).save(buf, "PNG")
>>> check_image(buf.getvalue())
ImageInfo(format='PNG', width=40, height=30, extension='.png')
>>> check_image(buf.getvalue()[:-20])
Traceback (most recent call last):
...
web.uploads.UploadError: the photo is cut short (the PNG ends before its last chunk): send it again
>>> check_image(b"GIF89a not really")
Traceback (most recent call last):
...
web.uploads.UploadError: not an image the table can read (JPEG, PNG or WebP)
"""

from __future__ import annotations

import contextlib
import re
import secrets
import struct
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from cribbage.storage import file_error
from imaging.limits import TooLarge, read_header, reduction

ALLOWED_FORMATS = {"JPEG": ".jpg", "PNG": ".png", "WEBP": ".webp"}
PHOTO_NAME = re.compile(r"^[0-9a-f]{32}\.(jpg|png|webp)$")
NOT_AN_IMAGE = "not an image the table can read (JPEG, PNG or WebP)"


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


def check_image(data: bytes, max_pixels: int | None = None) -> ImageInfo:
    """Check ``data`` is a whole JPEG, PNG or WebP the reader can read within the pixel budget
    (``max_pixels``: the largest photo taken at all, default ``imaging.limits.MAX_PIXELS``),
    without decoding it."""
    if not data:
        raise UploadError("the photo is empty")
    try:
        header = read_header(data)
    except TooLarge as exc:
        raise UploadError(f"the photo is {exc}", 413) from exc
    if header is None or header.format not in ALLOWED_FORMATS:
        raise UploadError(NOT_AN_IMAGE, 415)
    if header.width < 1 or header.height < 1:
        raise UploadError("the photo has no pixels")
    try:
        reduction(header, max_pixels)
    except TooLarge as exc:
        raise UploadError(f"the photo is {exc}", 413) from exc
    check_whole(data, header.format)
    width, height = header.size
    return ImageInfo(header.format, width, height, ALLOWED_FORMATS[header.format])


def check_whole(data: bytes, fmt: str) -> None:
    """Refuse (400) a JPEG, PNG or WebP whose bytes stop before the image does, or a PNG whose
    image chunks fail their checksums, from its structure alone (nothing is decoded).

    A JPEG is whole when its end marker follows its first scan (a marker never occurs inside a
    scan's data); a PNG when its chunks run whole to ``IEND``; a WebP when it holds the bytes its
    RIFF header counts.

    >>> check_whole(b"RIFF" + (200).to_bytes(4, "little") + b"WEBPVP8 ", "WEBP")
    Traceback (most recent call last):
    ...
    web.uploads.UploadError: the photo is cut short (the WebP ends before its last chunk): send it again
    """
    whole = {"JPEG": _jpeg_whole, "PNG": _png_whole, "WEBP": _webp_whole}[fmt](data)
    if whole is not True:
        raise UploadError(f"the photo is {whole}: send it again")


def _jpeg_whole(data: bytes) -> bool | str:
    cut = "cut short (the JPEG ends before its last marker)"
    at = 2  # after the start-of-image marker
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return "damaged (a JPEG marker is missing)"
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker == 0xD9:
            return "damaged (the JPEG ends before its image)"
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers without a length
            at += 2
            continue
        (length,) = struct.unpack_from(">H", data, at + 2)
        if marker == 0xDA:  # the first scan: the image ends with the end-of-image marker
            return True if data.find(b"\xff\xd9", at + 2 + length) != -1 else cut
        at += 2 + length
    return cut


def _png_whole(data: bytes) -> bool | str:
    at = 8  # after the signature
    while at + 12 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, at)
        end = at + 12 + length
        if end > len(data):
            break
        if kind[:1].isupper():  # a critical chunk: the decoder refuses it damaged
            (crc,) = struct.unpack_from(">I", data, end - 4)
            if zlib.crc32(data[at + 4:end - 4]) != crc:
                return f"damaged (its {kind.decode('latin-1')} chunk fails its checksum)"
        if kind == b"IEND":
            return True
        at = end
    return "cut short (the PNG ends before its last chunk)"


def _webp_whole(data: bytes) -> bool | str:
    (size,) = struct.unpack_from("<I", data, 4)
    return True if len(data) >= 8 + size else "cut short (the WebP ends before its last chunk)"


def store_photo(folder: Path, data: bytes, info: ImageInfo) -> str:
    """Write ``data`` into ``folder`` under a random name; return that name.

    The photo appears whole or not at all (written beside, then renamed). A full SD card, a
    read-only or missing folder is a :class:`~cribbage.errors.StorageError` (the page's 507
    or 503, as for events: :func:`cribbage.storage.file_error`), with nothing left behind."""
    # 16 hex digits of the time, then 16 random ones: unguessable, and in the order taken
    name = f"{time.time_ns():016x}{secrets.token_hex(8)}{info.extension}"
    part = folder / f".{name}.part"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        part.write_bytes(data)
        part.replace(folder / name)
    except OSError as exc:
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
        error = file_error(exc, "the photo", folder)
        if error is None:
            raise
        raise error from None
    return name


def clear_parts(folder: Path) -> int:
    """Delete the ``.NAME.part`` files a photo being written leaves when the server is killed
    (at start: no photo is being written then); how many went.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()); _ = (d / ".abc.jpg.part").write_bytes(b"x")
    >>> clear_parts(d), list(d.iterdir())
    (1, [])
    """
    gone = 0
    for part in folder.glob(".*.part") if folder.is_dir() else ():
        with contextlib.suppress(OSError):
            part.unlink()
            gone += 1
    return gone


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
        try:
            old.unlink(missing_ok=True)
        except OSError:  # a read-only card: the photos stay, and the next upload says why
            continue
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
