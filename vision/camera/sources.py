"""Camera sources chosen by a spec string, like the LED outputs: each backend's library is
imported only when that backend is opened (picamera2 only on a Pi).

============================================  =================================================
spec                                          source
============================================  =================================================
``picamera2[:WxH][,fps=F,lens=D,lock=off]``   the Pi camera (:mod:`vision.camera.picam`);
``picamera2[...,mains=50|60]``                a lamp on 50 or 60 Hz mains: its flicker hidden;
                                              1280x720 at 10 fps, focus 1.43 dioptres; a
                                              size under 320x64 is refused (``MIN_WIDTH``)
``opencv[:N]``                                USB webcam ``N`` (default 0) via OpenCV, 1280x720
``video:PATH``                                a video file, at its own frame rate
``frames:DIR[@FPS]``                          a folder of images in natural name order, 10 fps
                                              unless ``@FPS`` (``frames:clip@5``)
============================================  =================================================

>>> open_source("video:/x/deal.mp4").spec
'video:/x/deal.mp4'
>>> source = open_source("frames:/x/clip@5")
>>> str(source.directory), source.fps, source.live
('/x/clip', 5.0, False)
>>> cam = open_source("picamera2:1640x1232,lens=2.5")
>>> cam.size, cam.lens, cam.fps
((1640, 1232), 2.5, 10.0)
>>> open_source("picamera2:160x120")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
vision.camera.frame.CameraError: picamera2: size 160x120 is too small: ... at least 320x64 ...
>>> open_source("nope:1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
vision.camera.frame.CameraError: unknown camera source 'nope:1': use picamera2[:WxH]..., opencv[:N], ...
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from vision.camera.frame import DEFAULT_FPS, CameraError, FrameSource

__all__ = ["SPECS", "USAGE", "open_source", "parse_size", "source_for_path"]

USAGE = {
    "picamera2": "picamera2[:WxH][,fps=F,lens=D,lock=off,mains=50|60]",
    "opencv": "opencv[:N]",
    "video": "video:PATH",
    "frames": "frames:DIR[@FPS]",
}
"""How to write each kind of spec (the error messages quote it)."""

SPECS = tuple(USAGE)
"""The kinds of source: ``("picamera2", "opencv", "video", "frames")``."""

_ALL_USAGE = ", ".join(list(USAGE.values())[:-1]) + " or " + list(USAGE.values())[-1]


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` → ``(1280, 720)``.

    >>> parse_size("640X480")
    (640, 480)
    >>> parse_size("abcx")
    Traceback (most recent call last):
    ...
    vision.camera.frame.CameraError: bad size 'abcx': use WIDTHxHEIGHT, e.g. 1280x720
    """
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise CameraError(f"bad size {text!r}: use WIDTHxHEIGHT, e.g. 1280x720")
    return int(match[1]), int(match[2])


def _number(kind: str, key: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise CameraError(f"{kind}: {key} must be a number, not {text!r}")
    return value


def _picamera2(spec: str, rest: str) -> FrameSource:
    from vision.camera.picam import CAMERA_SIZE, Picamera2Source

    parts = [p.strip() for p in rest.split(",")] if rest.strip() else []
    size = CAMERA_SIZE
    if parts and "=" not in parts[0]:
        size = parse_size(parts.pop(0))
    options: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise CameraError(f"picamera2: bad option {part!r}: use key=value ({USAGE['picamera2']})")
        options[key.strip().lower()] = value.strip()
    kwargs: dict[str, object] = {}
    for key in ("fps", "lens"):
        if key in options:
            kwargs[key] = _number("picamera2", key, options.pop(key))
    if "lock" in options:
        lock = options.pop("lock").lower()
        if lock not in ("on", "off"):
            raise CameraError(f"picamera2: lock is on or off, not {lock!r}")
        kwargs["lock"] = lock == "on"
    if "mains" in options:
        mains = options.pop("mains").lower().removesuffix("hz")
        if mains not in ("50", "60", "off"):
            raise CameraError(f"picamera2: mains is 50, 60 or off, not {mains!r}")
        kwargs["mains"] = None if mains == "off" else int(mains)
    if options:
        raise CameraError(f"picamera2: unknown option(s) {', '.join(options)}: use fps, lens, lock, mains")
    return Picamera2Source(size, spec=spec, **kwargs)  # type: ignore[arg-type]


def _frames(spec: str, rest: str) -> FrameSource:
    from vision.camera.folder import FrameFolder

    path, at, rate = rest.rpartition("@")
    if at and re.fullmatch(r"\s*[0-9.]+\s*", rate):
        return FrameFolder(path, _number("frames", "the rate after @", rate), spec=spec)
    return FrameFolder(rest, DEFAULT_FPS, spec=spec)


MAX_CAMERA_NUMBER = 255
"""The largest webcam number (``opencv:N``): Linux numbers video devices /dev/video0 to 255."""


def open_source(spec: str) -> FrameSource:
    """The source named by ``spec`` (see the table above), built but not opened.

    Raises :class:`CameraError` for a spec that names no known kind or is malformed.
    """
    spec = spec.strip()
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "picamera2":
        return _picamera2(spec, rest)
    if kind == "opencv":
        from vision.camera.opencv import OpenCVCamera

        index = rest.strip() or "0"
        if not index.isdigit() or len(index.lstrip("0")) > 3 or int(index) > MAX_CAMERA_NUMBER:
            shown = index if len(index) <= 24 else index[:24] + "..."
            raise CameraError(f"opencv: the camera number is a whole number from 0 to "
                              f"{MAX_CAMERA_NUMBER} (the N of /dev/videoN), not {shown!r} "
                              f"({USAGE['opencv']})")
        return OpenCVCamera(int(index), spec=spec)
    if kind in ("video", "frames") and not rest.strip():
        raise CameraError(f"{kind}: no path given: use {USAGE[kind]}")
    if kind == "video":
        from vision.camera.opencv import VideoFile

        return VideoFile(rest, spec=spec)
    if kind == "frames":
        return _frames(spec, rest)
    raise CameraError(f"unknown camera source {spec!r}: use {_ALL_USAGE}")


def source_for_path(path: str | Path) -> FrameSource:
    """``crib track PATH``: a folder is played as ``frames:``, anything else as ``video:``.

    >>> source_for_path("/nowhere/deal.mp4").spec
    'video:/nowhere/deal.mp4'
    """
    if Path(path).is_dir():
        from vision.camera.folder import FrameFolder

        return FrameFolder(path)  # not through the spec: a folder may be called "clip@5"
    from vision.camera.opencv import VideoFile

    return VideoFile(path)
