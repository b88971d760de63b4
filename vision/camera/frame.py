"""What every camera source gives: frames, one small interface, one kind of error.

A source is built from a spec string (:func:`vision.camera.open_source`), opened, read until
it returns ``None`` (the end of a file or folder) or raises :class:`CameraError` (a live camera
that failed), and closed.

>>> import numpy as np
>>> frame = Frame(np.zeros((720, 1280, 3), np.uint8), number=3, time=0.3)
>>> frame.size, frame.lores is None, dict(frame.metadata)
((1280, 720), True, {})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["DEFAULT_FPS", "CameraError", "Frame", "FrameSource"]

DEFAULT_FPS = 10.0
"""Frame rate of a folder of images unless its spec says otherwise, and of a video that does not
say (OpenCV reports 0 or NaN)."""


class CameraError(Exception):
    """A source that cannot give frames (camera absent or failed, file unreadable, bad spec),
    as one line a user can act on. ``lasting`` is True when trying again cannot help until
    someone fixes what it says (picamera2 that will not import): the capture thread then stops
    retrying (state ``failed``).

    >>> CameraError("no camera").lasting, CameraError("picamera2 is broken", lasting=True).lasting
    (False, True)
    """

    def __init__(self, message: str, *, lasting: bool = False) -> None:
        super().__init__(message)
        self.lasting = lasting


@dataclass(frozen=True)
class Frame:
    """One frame of a source.

    ``image`` is the main stream, BGR ``uint8`` H x W x 3 (OpenCV's order). ``number`` is the
    source's own 0-based frame number: a video's frame index, a folder's image index (in the
    folder's sorted listing), a live camera's count since it was opened. ``time`` is in seconds:
    ``number / fps`` for files and folders, the time since the source was opened for cameras.
    ``lores`` is a small grey image (the Y plane of picamera2's lores stream) when the source
    gives one, for cheap motion detection; ``metadata`` is what the source reports about the
    frame (picamera2's request metadata: ``ExposureTime``, ``SensorTimestamp`` ...).
    ``field_of_view`` is the picture's horizontal field of view in degrees where the source
    knows it (the Pi camera, from the sensor's crop), else ``None``.
    """

    image: np.ndarray
    number: int
    time: float
    lores: np.ndarray | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    field_of_view: float | None = None

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the main image."""
        height, width = self.image.shape[:2]
        return width, height


@runtime_checkable
class FrameSource(Protocol):
    """Where frames come from. Built (not opened) by :func:`vision.camera.open_source`.

    Only one thread may use a source: :class:`vision.camera.Capture` owns it.
    """

    spec: str
    """The spec it was built from, e.g. ``"video:/x/deal.mp4"``."""
    fps: float | None
    """Nominal frame rate: a video's own, a folder's chosen rate, a camera's configured rate."""
    live: bool
    """True for cameras (frames are never paced and never repeat), False for files and folders."""

    def open(self) -> None:
        """Start; raise :class:`CameraError` when the camera is absent or the file unreadable."""
        ...

    def read(self) -> Frame | None:
        """The next frame; ``None`` at the end of a file or folder; :class:`CameraError` when a
        live camera fails mid-stream."""
        ...

    def close(self) -> None:
        """Release the device or file; safe to call twice, or after a failed :meth:`open`."""
        ...
