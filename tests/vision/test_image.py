"""Opening photos: formats, EXIF orientation, errors."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image

from cribbage.errors import CribbageError
from vision.errors import ImageError
from vision.image import load_image


def _jpeg_with_orientation(arr_rgb: np.ndarray, orientation: int) -> bytes:
    im = Image.fromarray(arr_rgb)
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    im.save(buf, "JPEG", exif=exif.tobytes(), quality=95)
    return buf.getvalue()


def test_png_bytes_and_path(tmp_path):
    img = np.zeros((10, 20, 3), np.uint8)
    img[:, :10] = (255, 0, 0)
    path = tmp_path / "a.png"
    cv2.imwrite(str(path), img)
    assert load_image(path).shape == (10, 20, 3)
    assert load_image(str(path))[0, 0].tolist() == [255, 0, 0]
    assert load_image(path.read_bytes()).shape == (10, 20, 3)


def test_exif_orientation_is_honoured():
    rgb = np.zeros((20, 40, 3), np.uint8)  # wide as stored; orientation 6 = turn clockwise
    rgb[:, :20] = (255, 255, 255)  # left half white
    out = load_image(_jpeg_with_orientation(rgb, 6))
    assert out.shape[:2] == (40, 20)
    assert out[5, 10].mean() > 200 and out[35, 10].mean() < 50  # the left half is now on top


@pytest.mark.parametrize("data", [b"", b"not an image at all", b"\x89PNG\r\n\x1a\n broken"])
def test_not_an_image(data):
    with pytest.raises(ImageError) as exc:
        load_image(data)
    assert isinstance(exc.value, CribbageError)
    assert "\n" not in str(exc.value)


def test_missing_file(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")


def test_a_folder_is_named_as_one(tmp_path):
    with pytest.raises(ImageError, match="a folder, not an image"):
        load_image(tmp_path)


def test_oversized(monkeypatch):
    from imaging import limits

    monkeypatch.setattr(limits, "MAX_PIXELS", 100)
    _ok, buf = cv2.imencode(".png", np.zeros((20, 20, 3), np.uint8))
    with pytest.raises(ImageError, match="too large"):
        load_image(buf.tobytes())


def test_a_png_claiming_huge_dimensions_is_refused_before_decoding():
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 50_000, 50_000, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 10)) + chunk(
        b"IEND", b"")
    with pytest.raises(ImageError, match="too large"):
        load_image(data)


def test_a_photo_comes_back_no_larger_than_the_reader_reads():
    """The card reader reads at most 1600 pixels across: a 12 MP JPEG is decoded at half its size
    (libjpeg's 1/2), a PNG whole, and each is shrunk to 1600 across, keeping its own size."""
    from vision.image import open_photo, read_header, reduction

    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (3024, 4032, 3), dtype=np.uint8)
    for fmt in (".jpg", ".png"):
        data = cv2.imencode(fmt, img)[1].tobytes()
        photo = open_photo(data, side=1600)
        assert photo.pixels.shape[:2] == (1200, 1600), fmt
        assert (photo.width, photo.height, photo.scale) == (4032, 3024, 2.52), fmt
        assert reduction(read_header(data), side=1600) == (2 if fmt == ".jpg" else 1)
    assert open_photo(data).pixels.shape[:2] == (3024, 4032)
    small = cv2.imencode(".png", img[:900, :1200])[1].tobytes()
    assert open_photo(small, side=1600).pixels.shape[:2] == (900, 1200)
