"""The sources OpenCV reads, with real files written here, and the spec strings."""

from __future__ import annotations

import doctest
import importlib
import logging
import pkgutil
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.camera
from vision.camera import SPECS, CameraError, Capture, FrameSource, open_source, source_for_path
from vision.camera.folder import FrameFolder
from vision.camera.opencv import VideoFile

from .conftest import WAIT


def grey(n: int, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    return np.full((size[1], size[0], 3), 20 * n, np.uint8)


def write_video(path: Path, fourcc: str, frames: int, fps: float = 10.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), fps, (160, 120))
    assert writer.isOpened()
    for n in range(frames):
        writer.write(grey(n))
    writer.release()
    return path


def read_all(source: FrameSource) -> list:
    source.open()
    try:
        frames = []
        while (frame := source.read()) is not None:
            frames.append(frame)
        return frames
    finally:
        source.close()


@pytest.mark.parametrize(("name", "fourcc"), [("deal.mp4", "mp4v"), ("deal.avi", "MJPG")])
def test_a_video_file_gives_every_frame_numbered_and_timed(tmp_path: Path, name: str, fourcc: str) -> None:
    path = write_video(tmp_path / name, fourcc, 12)
    source = open_source(f"video:{path}")
    assert (source.spec, source.live) == (f"video:{path}", False)
    frames = read_all(source)
    assert source.fps == pytest.approx(10.0)
    assert [f.number for f in frames] == list(range(12))
    assert [f.time for f in frames] == pytest.approx([n / 10 for n in range(12)])
    assert all(f.image.shape == (120, 160, 3) and f.image.dtype == np.uint8 for f in frames)
    assert [round(float(f.image.mean()) / 20) for f in frames] == list(range(12))  # in file order
    assert all(f.lores is None for f in frames)


def test_a_video_plays_through_the_capture_frame_by_frame(tmp_path: Path) -> None:
    path = write_video(tmp_path / "deal.avi", "MJPG", 6)
    capture = Capture(lambda: source_for_path(path), realtime=False)
    with capture:
        got = []
        while (frame := capture.wait_frame(got[-1].seq if got else 0, WAIT)) is not None:
            got.append(frame)
    assert [(f.seq, f.number) for f in got] == [(n + 1, n) for n in range(6)]


def test_a_folder_plays_in_natural_order_skipping_what_does_not_decode(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    for n in (1, 2, 3, 10):
        cv2.imwrite(str(tmp_path / f"f{n}.png"), grey(n))
    cv2.imwrite(str(tmp_path / "f11.JPG"), grey(11))
    (tmp_path / "f4.png").write_bytes(b"not a png")
    (tmp_path / "notes.txt").write_text("not a frame")
    source = open_source(f"frames:{tmp_path}")
    assert source.fps == 10.0 and source.live is False
    with caplog.at_level(logging.WARNING):
        frames = read_all(source)
    names = [Path(f.metadata["path"]).name for f in frames]
    assert names == ["f1.png", "f2.png", "f3.png", "f10.png", "f11.JPG"]
    assert [f.number for f in frames] == [0, 1, 2, 4, 5]  # f4.png was number 3
    assert [f.time for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.4, 0.5])
    assert [round(float(f.image.mean()) / 20) for f in frames] == [1, 2, 3, 10, 11]
    assert "f4.png" in caplog.text


def test_a_folder_at_a_chosen_rate(tmp_path: Path) -> None:
    for n in range(3):
        cv2.imwrite(str(tmp_path / f"{n}.png"), grey(n))
    frames = read_all(open_source(f"frames:{tmp_path}@5"))
    assert [f.time for f in frames] == pytest.approx([0.0, 0.2, 0.4])


def test_source_for_path_plays_a_folder_as_frames_and_a_file_as_video(tmp_path: Path) -> None:
    odd = tmp_path / "clip@5"
    odd.mkdir()
    assert isinstance(source_for_path(odd), FrameFolder) and source_for_path(odd).fps == 10.0
    assert isinstance(source_for_path(tmp_path / "x.mp4"), VideoFile)
    assert source_for_path(odd).spec == f"frames:{odd}"


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: f"video:{p / 'missing.mp4'}", "missing.mp4: no such file"),
    (lambda p: f"video:{p / 'notes.txt'}", "OpenCV cannot read it"),
    (lambda p: f"frames:{p / 'nowhere'}", "nowhere: no such folder"),
    (lambda p: f"frames:{p / 'empty'}", r"no images \(\.jpg"),
    (lambda p: "opencv:99", r"no camera at opencv:99: is it plugged in"),
    # a folder named as a video said "no such file"
    (lambda p: f"video:{p / 'empty'}", r"empty: that is a folder, not a video file \(a folder of "
                                       r"frames is frames:"),
])
def test_a_source_that_cannot_open_says_why(tmp_path: Path, make, message: str) -> None:
    (tmp_path / "notes.txt").write_text("not a video")
    (tmp_path / "empty").mkdir()
    source = open_source(make(tmp_path))
    with pytest.raises(CameraError, match=message):
        source.open()
    source.close()


@pytest.mark.parametrize(("spec", "message"), [
    ("nope:1", "unknown camera source 'nope:1': use picamera2.*opencv.*video:PATH or frames:DIR"),
    ("", "unknown camera source ''"),
    ("video:", "video: no path given: use video:PATH"),
    ("frames:  ", "frames: no path given"),
    ("picamera2:abcx", "bad size 'abcx': use WIDTHxHEIGHT"),
    ("picamera2:10x10", "too small"),
    ("picamera2:640x480,zoom=2", "unknown option.*zoom"),
    ("picamera2:640x480,fps=fast", "fps must be a number"),
    ("picamera2:640x480,fps=0", "fps must be above 0"),
    ("picamera2:640x480,lens=-1", "lens is in dioptres"),
    ("picamera2:640x480,lock=maybe", "lock is on or off"),
    ("picamera2:640x480,lens", "bad option 'lens'"),
    ("opencv:front", "whole number"),
    # OpenCV's own error ("Python int too large to convert to C long") was shown as it was
    ("opencv:99999999999999999999", r"the camera number is a whole number from 0 to 255 "
                                    r"\(the N of /dev/videoN\), not '99999999999999999999'"),
    ("opencv:256", "from 0 to 255"),
    ("opencv:" + "9" * 5000, r"not '999999999999999999999999\.\.\.'"),
])
def test_a_bad_spec_is_refused_naming_the_problem(spec: str, message: str) -> None:
    with pytest.raises(CameraError, match=message):
        open_source(spec)


def test_the_kinds_and_the_defaults() -> None:
    assert SPECS == ("picamera2", "opencv", "video", "frames")
    cam = open_source("picamera2")
    assert (cam.size, cam.fps, cam.live) == ((1280, 720), 10.0, True)
    assert open_source("opencv").index == 0 and open_source("OpenCV:2").index == 2
    specs = ("picamera2", "opencv:1", "video:x", "frames:y")
    assert all(isinstance(open_source(s), FrameSource) for s in specs)


MODULES = sorted(info.name for info in pkgutil.walk_packages(vision.camera.__path__, "vision.camera."))


def test_every_module_is_searched_for_examples() -> None:
    assert {"vision.camera.capture", "vision.camera.picam", "vision.camera.sources"} <= set(MODULES)


@pytest.mark.parametrize("name", ["vision.camera", *MODULES])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
