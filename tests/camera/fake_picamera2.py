"""A stand-in for the ``picamera2`` module, for the tests of ``vision.camera.picam``.

It implements only the documented calls the backend uses (``Picamera2()``,
``camera_controls``, ``create_video_configuration``, ``configure``, ``stream_configuration``,
``start``, ``capture_request(wait=...)`` returning a request with ``make_array``,
``get_metadata`` and ``release``, ``set_controls``, ``stop``, ``close``) and records every call,
so tests can check how the backend uses the camera. It is injected as ``sys.modules["picamera2"]``
by the ``fake_picamera2`` fixture; :data:`BEHAVIOUR` sets what the camera does.

Like the real one: no camera makes ``Picamera2()`` raise ``IndexError``; the lores YUV420 array
is ``(h * 3 / 2) x stride`` with the Y plane in the first ``h`` rows (and padding past ``w``);
a request may be released only once; a camera has only ``buffer_count`` buffers, so requests
that are never released run it dry (the real one then waits forever; this one raises).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


def settling(n: int) -> dict[str, Any]:
    """Metadata of request ``n``: auto exposure and white balance move for 5 frames, then hold."""
    k = min(n, 5)
    return {"ExposureTime": 10_000 + 2_000 * k, "AnalogueGain": 1.0 + 0.25 * k,
            "ColourGains": (1.5 + 0.05 * k, 1.8), "SensorTimestamp": 1_000_000_000 + 100_000_000 * n}


@dataclass
class Behaviour:
    present: bool = True
    """A camera is connected."""
    autofocus: bool = True
    """``camera_controls`` has ``AfMode`` and ``LensPosition`` (a Camera Module 3)."""
    fail_at: int | None = None
    """``capture_request`` raises from this request number on (the camera failed mid-stream)."""
    metadata: Callable[[int], dict[str, Any]] = field(default=settling)
    not_advertised: tuple[str, ...] = ()
    """Controls missing from ``camera_controls`` (``set_controls`` refuses them, as the real one)."""


BEHAVIOUR = Behaviour()
CAMERAS: list[Picamera2] = []
"""Every camera built, in order."""


def reset() -> None:
    global BEHAVIOUR
    BEHAVIOUR = Behaviour()
    CAMERAS.clear()


class CompletedRequest:
    def __init__(self, camera: Picamera2, number: int) -> None:
        self.camera = camera
        self.number = number
        self.taken: list[str] = []
        self.released = False

    def make_array(self, name: str) -> np.ndarray:
        self._check()
        self.taken.append(name)
        stream = self.camera.stream_configuration(name)
        width, height = stream["size"]
        value = self.number % 256
        if stream["format"] == "RGB888":
            return np.full((height, width, 3), value, np.uint8)
        if stream["format"] == "YUV420":
            array = np.full((height * 3 // 2, stream["stride"]), 128, np.uint8)
            array[:height, :] = 255  # the padding past the width
            array[:height, :width] = value
            return array
        raise RuntimeError(f"the fake does not make {stream['format']}")

    def get_metadata(self) -> dict[str, Any]:
        self._check()
        self.taken.append("metadata")
        return dict(BEHAVIOUR.metadata(self.number))

    def release(self) -> None:
        if self.released:
            raise RuntimeError("CompletedRequest: lock now has negative ref_count")
        self.released = True

    def _check(self) -> None:
        if self.released:
            raise RuntimeError("CompletedRequest used after release")


class Picamera2:
    def __init__(self, camera_num: int = 0) -> None:
        if not BEHAVIOUR.present:
            raise IndexError("list index out of range")
        self.camera_controls: dict[str, tuple[Any, Any, Any]] = {
            "ExposureTime": (26, 220_000_000, 20_000), "AnalogueGain": (1.0, 16.0, 1.0),
            "ColourGains": (0.0, 32.0, None), "FrameDurationLimits": (33_333, 120_000_000, 33_333),
            "AeEnable": (False, True, None), "AwbEnable": (False, True, None)}
        self.camera_controls = {k: v for k, v in self.camera_controls.items()
                                if k not in BEHAVIOUR.not_advertised}
        if BEHAVIOUR.autofocus:
            self.camera_controls |= {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.config: dict[str, Any] | None = None
        self.started = False
        self.closed = False
        self.requests: list[CompletedRequest] = []
        self.controls_set: list[tuple[int, dict[str, Any]]] = []
        """Each ``set_controls`` call: (requests handed out before it, the controls)."""
        self.waits: list[Any] = []
        CAMERAS.append(self)

    def create_video_configuration(
            self, main: dict[str, Any] | None = None, lores: dict[str, Any] | None = None,
            raw: dict[str, Any] | None = None, transform: Any = None, colour_space: Any = None,
            buffer_count: int = 6, controls: dict[str, Any] | None = None, display: str | None = "main",
            encode: str | None = "main", queue: bool = True, sensor: dict[str, Any] | None = None,
            use_case: str = "video") -> dict[str, Any]:
        main = {"format": "XBGR8888", "size": (1280, 720)} | (main or {})
        if lores is not None:
            lores = {"format": "YUV420", "size": main["size"]} | lores
        return {"use_case": use_case, "buffer_count": buffer_count, "main": main, "lores": lores,
                "controls": dict(controls or {}), "queue": queue}

    def configure(self, config: dict[str, Any]) -> None:
        config = {k: dict(v) if isinstance(v, dict) else v for k, v in config.items()}
        for name in ("main", "lores"):
            stream = config.get(name)
            if stream is not None:
                width, height = stream["size"]
                stream["size"] = (width - width % 2, height - height % 2)
                bytes_per_pixel = 3 if stream["format"] == "RGB888" else 1
                stream["stride"] = -(-width * bytes_per_pixel // 128) * 128 + 64
        self.config = config

    def stream_configuration(self, name: str = "main") -> dict[str, Any]:
        assert self.config is not None
        return self.config[name]

    def start(self) -> None:
        if self.config is None:
            raise RuntimeError("Camera has not been configured")
        self.started = True

    def capture_request(self, wait: Any = None, signal_function: Any = None,
                        flush: Any = None) -> CompletedRequest:
        if not self.started:
            raise RuntimeError("Camera not started")
        assert self.config is not None
        self.waits.append(wait)
        number = len(self.requests)
        if BEHAVIOUR.fail_at is not None and number >= BEHAVIOUR.fail_at:
            raise RuntimeError("Camera frontend has timed out!")
        if sum(not r.released for r in self.requests) >= self.config["buffer_count"]:
            raise RuntimeError("fake picamera2: every buffer is held by a request never released")
        request = CompletedRequest(self, number)
        self.requests.append(request)
        return request

    def set_controls(self, controls: dict[str, Any]) -> None:
        for name in controls:
            if name not in self.camera_controls:
                raise RuntimeError(f"Control {name} is not advertised by libcamera")
        self.controls_set.append((len(self.requests), dict(controls)))

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.stop()
        self.closed = True
