"""Camera sources: the Pi camera, a webcam, a video file or a folder of images, behind one
interface, and the one capture thread that serves the tracker and the page.

See :mod:`vision.camera.sources` for the specs and docs/camera.md for the guide. Nothing here
imports picamera2: the Pi camera's backend imports it when it is opened.

>>> SPECS
('picamera2', 'opencv', 'video', 'frames')
>>> open_source("opencv:abc")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
vision.camera.frame.CameraError: opencv: the camera number is a whole number from 0 to 255 ...
"""

from __future__ import annotations

from vision.camera.capture import Capture, Captured
from vision.camera.frame import CameraError, Frame, FrameSource
from vision.camera.sources import SPECS, open_source, source_for_path

__all__ = ["SPECS", "CameraError", "Capture", "Captured", "Frame", "FrameSource", "open_source",
           "source_for_path"]
