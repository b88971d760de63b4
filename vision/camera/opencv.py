"""Sources read through OpenCV's ``cv2.VideoCapture``: a video file and a USB webcam.

>>> video = VideoFile("/nowhere/deal.mp4")
>>> video.spec, video.live, video.fps
('video:/nowhere/deal.mp4', False, None)
>>> video.open()
Traceback (most recent call last):
...
vision.camera.frame.CameraError: video /nowhere/deal.mp4: no such file
>>> OpenCVCamera(0).spec
'opencv:0'
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import cv2

from imaging.limits import READ_PIXELS, megapixels
from vision.camera.frame import DEFAULT_FPS, CameraError, Frame

__all__ = ["WEBCAM_SIZE", "OpenCVCamera", "VideoFile"]

WEBCAM_SIZE = (1280, 720)
"""The size a webcam is asked for; it may give another, and each frame says what it gave."""
FRAME_PIXELS = READ_PIXELS
"""The largest video frame played (the pixel budget of photos, :mod:`imaging.limits`): each
frame is decoded whole, so a larger video is refused when opened."""


DECODE_THREADS = 1
"""Threads FFmpeg decodes a video file with: one decodes a 1280x720 frame in about 1 ms here,
far inside a frame's time at 10 frames/s, and each further thread holds frames of its own (4 MB
here; FFmpeg starts a thread per core and one more, so more on a four-core Pi)."""


class VideoFile:
    """Any file ``cv2.VideoCapture`` opens (mp4, avi, mkv ... as this OpenCV's FFmpeg allows).

    Frames are numbered 0, 1, 2 ... in file order; ``time`` is ``number / fps`` with the video's
    own rate (:data:`~vision.camera.frame.DEFAULT_FPS` when the file gives none). ``fps`` is
    known once opened.
    """

    live = False

    def __init__(self, path: str | Path, *, spec: str | None = None) -> None:
        self.path = Path(path)
        self.spec = spec or f"video:{path}"
        self.fps: float | None = None
        self.frame_count: int | None = None  # as the file's header says, once opened (for progress)
        self._cap: cv2.VideoCapture | None = None
        self._next = 0

    def open(self) -> None:
        if self.path.is_dir():
            raise CameraError(f"video {self.path}: that is a folder, not a video file (a folder of "
                              f"frames is frames:{self.path})")
        if not self.path.is_file():
            raise CameraError(f"video {self.path}: no such file")
        cap = cv2.VideoCapture(str(self.path), cv2.CAP_ANY, [cv2.CAP_PROP_N_THREADS, DECODE_THREADS])
        if not cap.isOpened():  # a backend that refuses the thread count: as it likes
            cap.release()
            cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"video {self.path}: OpenCV cannot read it (not a video, or a codec it lacks)")
        width, height = cap.get(cv2.CAP_PROP_FRAME_WIDTH), cap.get(cv2.CAP_PROP_FRAME_HEIGHT)
        if math.isfinite(width * height) and width * height > FRAME_PIXELS:
            cap.release()
            raise CameraError(f"video {self.path}: its frames are {width:.0f}x{height:.0f} "
                              f"({megapixels(int(width * height))}), over the {megapixels(FRAME_PIXELS)} "
                              "a frame may have: scale it down first")
        rate = cap.get(cv2.CAP_PROP_FPS)
        self.fps = rate if math.isfinite(rate) and rate > 0 else DEFAULT_FPS
        count = cap.get(cv2.CAP_PROP_FRAME_COUNT)
        self.frame_count = int(count) if math.isfinite(count) and count > 0 else None
        self._cap, self._next = cap, 0

    def read(self) -> Frame | None:
        if self._cap is None:
            raise CameraError(f"{self.spec}: read before open")
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        number, self._next = self._next, self._next + 1
        assert self.fps is not None
        return Frame(image, number, number / self.fps)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class OpenCVCamera:
    """A USB webcam (V4L2 on Linux) as ``cv2.VideoCapture(index)``, asked for
    :data:`WEBCAM_SIZE`. Frames are numbered from 0 when opened; ``time`` is seconds since then.
    """

    live = True

    def __init__(self, index: int, *, size: tuple[int, int] = WEBCAM_SIZE, spec: str | None = None) -> None:
        self.index = index
        self.size = size
        self.spec = spec or f"opencv:{index}"
        self.fps: float | None = None
        self._cap: cv2.VideoCapture | None = None
        self._next = 0
        self._opened_at = 0.0

    def open(self) -> None:
        try:
            cap = cv2.VideoCapture(self.index)
        except (cv2.error, OverflowError):  # a number no device can have
            raise CameraError(f"no camera at {self.spec}: that is not a camera number "
                              "(ls /dev/video* lists the cameras)") from None
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"no camera at {self.spec}: is it plugged in (ls /dev/video*) "
                              "and not in use by another program?")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        rate = cap.get(cv2.CAP_PROP_FPS)
        self.fps = rate if math.isfinite(rate) and rate > 0 else None
        self._cap, self._next, self._opened_at = cap, 0, time.monotonic()

    def read(self) -> Frame | None:
        if self._cap is None:
            raise CameraError(f"{self.spec}: read before open")
        ok, image = self._cap.read()
        if not ok or image is None:
            raise CameraError(f"camera {self.spec} stopped giving frames (unplugged?)")
        number, self._next = self._next, self._next + 1
        return Frame(image, number, time.monotonic() - self._opened_at)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
