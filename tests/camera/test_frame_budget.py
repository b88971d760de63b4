"""Huge frames: a folder's images and a video's frames go through the photos' pixel budget
(imaging/limits.py) before anything is decoded."""

from __future__ import annotations

import json
import logging
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, open_source
from vision.camera import opencv as opencv_sources
from vision.camera.folder import FrameFolder

from .test_sources import read_all, write_video

ROOT = Path(__file__).resolve().parents[2]


def write_sparse_png(path: Path, width: int, height: int) -> Path:
    """A real, valid black PNG of ``width`` x ``height`` (1 bit a pixel), written in a few
    kilobytes and well under a second: OpenCV would decode it to ``width * height * 3`` bytes."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    packer = zlib.compressobj(6)
    row = bytes(1 + (width + 7) // 8)  # filter byte 0, then the row's bits
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
    return path


PLAY = """
import json, resource, sys
import cv2, numpy
from PIL import JpegImagePlugin, PngImagePlugin  # what reading a header imports, before measuring
from vision.camera.folder import FrameFolder

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes

source = FrameFolder(sys.argv[1])
source.open()
before, frames = peak_mb(), []
while (frame := source.read()) is not None:
    frames.append({"path": frame.metadata["path"].rsplit("/", 1)[-1], "size": frame.size,
                   "scale": frame.metadata.get("scale", 1)})
    del frame
print(json.dumps({"frames": frames, "skipped": [[p.name, why] for p, why in source.skipped],
                  "grew_mb": peak_mb() - before}))
"""


def play_in_a_fresh_process(folder: Path) -> dict:
    """Play ``folder`` in a new Python (so its peak memory is its own, not the test run's)."""
    out = subprocess.run([sys.executable, "-c", PLAY, str(folder)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout)


def test_a_huge_png_is_skipped_from_its_header_and_never_decoded(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "f1.png"), np.full((120, 160, 3), 40, np.uint8))
    write_sparse_png(tmp_path / "f2.png", 10_000, 10_000)  # 100 MP: 300 MB as BGR
    cv2.imwrite(str(tmp_path / "f3.png"), np.full((120, 160, 3), 60, np.uint8))
    assert (tmp_path / "f2.png").stat().st_size < 100_000
    result = play_in_a_fresh_process(tmp_path)
    assert [f["path"] for f in result["frames"]] == ["f1.png", "f3.png"]
    [[name, why]] = result["skipped"]
    assert name == "f2.png"
    assert why.startswith("too large: 10000x10000 is 100 MP, over the 40 MP a PNG is read at")
    assert "\n" not in why
    assert result["grew_mb"] < 40, result  # decoding it would take 300 MB and more


def test_a_huge_jpeg_is_decoded_reduced_within_the_budget(tmp_path: Path) -> None:
    from PIL import Image

    Image.new("L", (12_000, 8_000), 128).save(tmp_path / "f1.jpg", quality=50)  # 96 MP
    result = play_in_a_fresh_process(tmp_path)
    assert result["frames"] == [{"path": "f1.jpg", "size": [6_000, 4_000], "scale": 2}]  # 24 MP
    assert result["skipped"] == []
    assert result["grew_mb"] < 150, result  # 72 MB as read; 288 MB decoded whole


def test_a_header_claiming_a_huge_size_is_skipped_with_a_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", 20_000, 20_000, 8, 2, 0, 0, 0)  # 20000x20000 RGB: 1.2 GB
    pixels = zlib.compress(bytes(100))  # and almost none of its pixels
    (tmp_path / "bomb.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
                                        + chunk(b"IEND", b""))
    cv2.imwrite(str(tmp_path / "ok.png"), np.zeros((8, 8, 3), np.uint8))
    source = FrameFolder(tmp_path)
    with caplog.at_level(logging.WARNING):
        frames = read_all(source)
    assert [Path(f.metadata["path"]).name for f in frames] == ["ok.png"]
    assert [f.number for f in frames] == [1]
    [warning] = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "bomb.png: too large: 20000x20000 is 400 MP" in warning


def test_a_file_with_no_image_header_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"not a png")
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8\xff" + bytes(70_000))  # no frame header in it at all
    source = FrameFolder(tmp_path)
    assert read_all(source) == []
    source.open()
    assert source.read() is None
    why = "not an image (its header does not read)"
    assert [(p.name, reason) for p, reason in source.skipped] == [("a.png", why), ("b.jpg", why)]


def test_a_video_over_the_budget_is_refused_when_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_video(tmp_path / "deal.avi", "MJPG", 3)  # 160x120 frames
    monkeypatch.setattr(opencv_sources, "FRAME_PIXELS", 160 * 120)
    assert len(read_all(open_source(f"video:{path}"))) == 3  # at the budget: played
    monkeypatch.setattr(opencv_sources, "FRAME_PIXELS", 160 * 120 - 1)
    source = open_source(f"video:{path}")
    with pytest.raises(CameraError, match=r"^video .*deal\.avi: its frames are 160x120 \(19,200 pixels\), "
                                          r"over the 19,199 pixels a frame may have"):
        source.open()
    source.close()


def test_the_video_budget_is_the_photos_one() -> None:
    from imaging.limits import READ_PIXELS

    assert opencv_sources.FRAME_PIXELS == READ_PIXELS == 40_000_000
