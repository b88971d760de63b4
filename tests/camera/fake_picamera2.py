"""A stand-in for the ``picamera2`` module (0.3.36 on Raspberry Pi OS), for the tests of
``vision.camera.picam``.

It implements only the calls the backend uses (``Picamera2.global_camera_info()``,
``Picamera2()``, ``camera_controls``, ``camera_properties``, ``sensor_modes``,
``create_video_configuration``, ``configure``, ``stream_configuration``, ``start``,
``capture_request(wait=...)`` returning a request with ``make_array``, ``get_metadata`` and
``release``, ``set_controls``, ``cancel_all_and_flush``, ``stop``, ``close``) and records every
call, so tests can check how the backend uses the camera. It is injected as
``sys.modules["picamera2"]`` by the ``fake_picamera2`` fixture; :data:`BEHAVIOUR` sets what the
camera does.

As strict as the real one where the backend relies on it (picamera2/picamera2.py, libcamera's
Python bindings):

* ``Picamera2()`` opens a pipe first and never closes it when construction fails: no camera
  listed raises ``IndexError`` (``global_camera_info()[0]``), a camera held by another process
  raises ``RuntimeError("Camera __init__ sequence did not complete.")`` from libcamera's
  ``RuntimeError("Failed to acquire camera: Device or resource busy")``; each counts in
  :data:`LEAKED_FDS`. A camera is held from construction until ``close()``.
* ``create_video_configuration`` refuses unknown stream keys (``ValueError``) and rounds sizes
  down to even; ``configure`` refuses odd sizes, a lores stream larger than the main one or not
  YUV (a Pi 4), unknown ``sensor`` keys, controls the camera does not advertise, and a started
  camera; it picks the sensor mode the way picamera2 scores them (from ``sensor``, else the
  raw stream's size, which is the main size) and records it.
* ``sensor_modes`` reconfigures the camera (so it must come before ``configure``).
* ``capture_request(wait=N)`` on a camera that gives no frames (lost, or every buffer held by a
  request never released) raises an empty ``TimeoutError`` and leaves its job queued; then
  ``stop()`` (and ``close()``, which stops) waits behind that job, as the real one waits for
  ever, until ``cancel_all_and_flush()`` clears the queue (after
  ``Behaviour.stop_hang_limit`` seconds it raises instead of hanging the tests).
* The lores YUV420 array is ``(h * 3 / 2) x stride`` with the Y plane in the first ``h`` rows
  (and padding past ``w``); a request may be released only once.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, TimeoutError  # picamera2 exports both
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["SENSORS", "CancelledError", "Picamera2", "TimeoutError"]


def _mode(fmt: str, size: tuple[int, int], fps: float, crop: tuple[int, int, int, int]) -> dict[str, Any]:
    bit_depth = int("".join(c for c in fmt.split("_")[0] if c.isdigit()))
    return {"format": fmt, "unpacked": fmt.split("_")[0], "bit_depth": bit_depth, "size": size, "fps": fps,
            "crop_limits": crop, "exposure_limits": (75, 11_766_829, None)}


@dataclass(frozen=True)
class Sensor:
    model: str
    pixel_array: tuple[int, int]
    modes: tuple[dict[str, Any], ...]
    autofocus: bool


SENSORS = {
    # Camera Module v2 on a Pi 4 (`rpicam-hello --list-cameras`): 10- and 8-bit modes.
    "imx219": Sensor("imx219", (3280, 2464), tuple(
        _mode(fmt, size, fps, crop) for fmt in ("SRGGB10_CSI2P", "SRGGB8")
        for size, fps, crop in (((640, 480), 206.65, (1000, 752, 1280, 960)),
                                ((1640, 1232), 41.85, (0, 0, 3280, 2464)),
                                ((1920, 1080), 47.57, (680, 692, 1920, 1080)),
                                ((3280, 2464), 21.19, (0, 0, 3280, 2464)))), autofocus=False),
    # Camera Module v1.
    "ov5647": Sensor("ov5647", (2592, 1944), tuple(
        _mode("SGBRG10_CSI2P", size, fps, crop)
        for size, fps, crop in (((640, 480), 58.92, (16, 0, 2560, 1920)),
                                ((1296, 972), 43.25, (0, 0, 2592, 1944)),
                                ((1920, 1080), 30.62, (348, 434, 1928, 1080)),
                                ((2592, 1944), 15.63, (0, 0, 2592, 1944)))), autofocus=False),
    # Camera Module 3.
    "imx708": Sensor("imx708", (4608, 2592), tuple(
        _mode("SRGGB10_CSI2P", size, fps, crop)
        for size, fps, crop in (((1536, 864), 120.13, (768, 432, 3072, 1728)),
                                ((2304, 1296), 56.03, (0, 0, 4608, 2592)),
                                ((4608, 2592), 14.35, (0, 0, 4608, 2592)))), autofocus=True),
}


def settling(n: int) -> dict[str, Any]:
    """Metadata of request ``n``: auto exposure and white balance move for 5 frames, then hold."""
    k = min(n, 5)
    return {"ExposureTime": 10_000 + 2_000 * k, "AnalogueGain": 1.0 + 0.25 * k,
            "ColourGains": (1.5 + 0.05 * k, 1.8), "SensorTimestamp": 1_000_000_000 + 100_000_000 * n}


@dataclass
class Behaviour:
    present: bool = True
    """A camera is connected (listed by ``global_camera_info``)."""
    busy: bool = False
    """Another process holds the camera (``Picamera2()`` fails to acquire it)."""
    sensor: str = "imx708"
    """Which camera module (a key of :data:`SENSORS`)."""
    autofocus: bool | None = None
    """``camera_controls`` has ``AfMode`` and ``LensPosition``; None: as the sensor (Camera Module 3)."""
    libcamera: tuple[int, int] = (0, 5)
    """libcamera's version: from 0.5 ``ExposureTimeMode`` / ``AnalogueGainMode`` replace ``AeEnable``."""
    fail_at: int | None = None
    """From this request number on the camera gives no frames (a loose ribbon cable)."""
    metadata: Callable[[int], dict[str, Any]] = field(default=settling)
    not_advertised: tuple[str, ...] = ()
    """Controls missing from ``camera_controls`` (``set_controls`` refuses them, as the real one)."""
    stop_hang_limit: float = 30.0
    """How long ``stop()`` waits behind a queued job before raising (the real one: for ever)."""


BEHAVIOUR = Behaviour()
CAMERAS: list[Picamera2] = []
"""Every camera built, in order."""
ATTEMPTS = 0
"""``Picamera2()`` calls, failed ones included."""
LEAKED_FDS = 0
"""Descriptors left open by failed ``Picamera2()`` calls (the real one's pipe)."""
_HELD: set[int] = set()


def reset() -> None:
    global BEHAVIOUR, ATTEMPTS, LEAKED_FDS
    BEHAVIOUR = Behaviour()
    CAMERAS.clear()
    _HELD.clear()
    ATTEMPTS = LEAKED_FDS = 0


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


_DEFAULT: Any = object()
_STREAM_KEYS = ("format", "size", "stride", "preserve_ar")
_RAW_IGNORED = ("bit_depth", "crop_limits", "exposure_limits", "fps", "unpacked")


def _stream(defaults: dict[str, Any], updates: dict[str, Any] | None,
            ignored: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """picamera2's ``_make_initial_stream_config``: the defaults with the caller's keys."""
    if updates is None:
        return None
    stream = dict(defaults)
    for key, value in updates.items():
        if key in _STREAM_KEYS:
            stream[key] = value
        elif key not in ignored:
            raise ValueError(f"Bad key {key!r}: valid stream configuration keys are {_STREAM_KEYS}")
    return stream


def _align(stream: dict[str, Any]) -> None:
    """picamera2's ``align_stream(optimal=False)``: even width and height."""
    width, height = stream["size"]
    stream["size"] = (width - width % 2, height - height % 2)


def _score(mode: dict[str, Any], bit_depth: int, output_size: tuple[int, int]) -> float:
    """How picamera2 (copying libcamera) scores a sensor mode against the wanted output."""
    def one(desired: float, actual: float) -> float:
        score = desired - actual
        return -score / 4 if score < 0 else score * 2

    (width, height), (mode_width, mode_height) = output_size, mode["size"]
    score = one(width, mode_width) + one(height, mode_height)
    score += 1500 * one(width / height, mode_width / mode_height)
    return score + 500 * abs(bit_depth - mode["bit_depth"])


class Picamera2:
    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        if not BEHAVIOUR.present:
            return []
        model = SENSORS[BEHAVIOUR.sensor].model
        return [{"Model": model, "Location": 2, "Rotation": 180, "Id": f"/base/soc/i2c0mux/i2c@1/{model}@10",
                 "Num": 0}]

    def __init__(self, camera_num: int = 0) -> None:
        global ATTEMPTS, LEAKED_FDS
        ATTEMPTS += 1
        LEAKED_FDS += 1  # the pipe, made first; closed only by close() of a camera that opened
        cameras = Picamera2.global_camera_info()
        camera_num = cameras[camera_num]["Num"]  # IndexError with no camera, as the real one
        if BEHAVIOUR.busy or camera_num in _HELD:
            try:
                raise RuntimeError("Failed to acquire camera: Device or resource busy")
            except RuntimeError as exc:
                raise RuntimeError("Camera __init__ sequence did not complete.") from exc
        LEAKED_FDS -= 1
        _HELD.add(camera_num)
        self.camera_num = camera_num
        self.sensor = SENSORS[BEHAVIOUR.sensor]
        array = (0, 0, *self.sensor.pixel_array)
        self.camera_controls: dict[str, tuple[Any, Any, Any]] = {
            "ExposureTime": (26, 220_000_000, 20_000), "AnalogueGain": (1.0, 16.0, 1.0),
            "ColourGains": (0.0, 32.0, None), "FrameDurationLimits": (33_333, 120_000_000, 33_333),
            "AwbEnable": (False, True, None), "NoiseReductionMode": (0, 4, 0),
            "AeFlickerMode": (0, 1, 0), "AeFlickerPeriod": (100, 1_000_000, None),
            "ScalerCrop": ((0, 0, 64, 64), array, array)}
        if BEHAVIOUR.libcamera >= (0, 5):
            self.camera_controls |= {"ExposureTimeMode": (0, 1, 0), "AnalogueGainMode": (0, 1, 0)}
        else:
            self.camera_controls |= {"AeEnable": (False, True, None)}
        if self.sensor.autofocus if BEHAVIOUR.autofocus is None else BEHAVIOUR.autofocus:
            self.camera_controls |= {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.camera_controls = {k: v for k, v in self.camera_controls.items()
                                if k not in BEHAVIOUR.not_advertised}
        width, height = self.sensor.pixel_array
        self.camera_properties = {"Model": self.sensor.model, "PixelArraySize": (width, height),
                                  "PixelArrayActiveAreas": [(0, 0, width, height)], "Location": 2,
                                  "Rotation": 180}
        self.config: dict[str, Any] | None = None
        self.mode: dict[str, Any] | None = None
        """The sensor mode the last ``configure`` chose."""
        self.started = False
        self.closed = False
        self.calls: list[str] = []
        """The names of the lifecycle calls, in order."""
        self.requests: list[CompletedRequest] = []
        self.controls_set: list[tuple[int, dict[str, Any]]] = []
        """Each ``set_controls`` call: (requests handed out before it, the controls)."""
        self.waits: list[Any] = []
        self.jobs: list[str] = []
        """Jobs queued and never finished (a timed-out ``capture_request``)."""
        self.cancelled = 0
        """Jobs ``cancel_all_and_flush`` took off the queue."""
        self._cond = threading.Condition()
        CAMERAS.append(self)

    @property
    def sensor_modes(self) -> list[dict[str, Any]]:
        self.calls.append("sensor_modes")
        for mode in self.sensor.modes:  # the real one configures the camera for each mode
            raw = {"format": mode["format"], "size": mode["size"]}
            self.configure(self.create_video_configuration(raw=raw))
        return copy.deepcopy(list(self.sensor.modes))

    def create_video_configuration(
            self, main: dict[str, Any] | None = None, lores: dict[str, Any] | None = None,
            raw: dict[str, Any] | None = _DEFAULT, transform: Any = None, colour_space: Any = None,
            buffer_count: int = 6, controls: dict[str, Any] | None = None, display: str | None = "main",
            encode: str | None = "main", queue: bool = True, sensor: dict[str, Any] | None = None,
            use_case: str = "video") -> dict[str, Any]:
        main = _stream({"format": "XBGR8888", "size": (1280, 720), "preserve_ar": True}, main or {})
        assert main is not None
        _align(main)
        lores = _stream({"format": "YUV420", "size": main["size"], "preserve_ar": False}, lores)
        if lores is not None:
            _align(lores)
        raw = _stream({"format": self.sensor.modes[0]["format"], "size": main["size"]},
                      {} if raw is _DEFAULT else raw, _RAW_IGNORED)  # the real default is {}: a raw stream
        controls = {"NoiseReductionMode": 1, "FrameDurationLimits": (33_333, 33_333)} | (controls or {})
        return {"use_case": use_case, "transform": transform, "colour_space": colour_space,
                "buffer_count": buffer_count, "queue": queue, "main": main, "lores": lores, "raw": raw,
                "controls": controls, "sensor": {} if sensor is None else sensor, "display": display,
                "encode": encode}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append("configure")
        if self.started:
            raise RuntimeError("Camera must be stopped before configuring")
        config = copy.deepcopy(config)
        for name in ("colour_space", "transform", "main", "lores", "raw"):
            if name not in config:
                raise RuntimeError(f"{name!r} key expected in camera configuration")
        sensor = config.get("sensor") or {}
        bad = set(sensor) - {"bit_depth", "output_size"}
        if bad:
            raise RuntimeError(f"Unexpected keys {bad} in sensor configuration")
        for name in ("main", "lores", "raw"):
            stream = config[name]
            if stream is None:
                continue
            if not isinstance(stream.get("size"), tuple) or len(stream["size"]) != 2:
                raise RuntimeError(f"size in {name} stream should be (width, height)")
            if name != "raw" and (stream["size"][0] % 2 or stream["size"][1] % 2):
                raise RuntimeError("width and height should be even")
        main, lores = config["main"], config["lores"]
        if lores is not None:
            if lores["size"][0] > main["size"][0] or lores["size"][1] > main["size"][1]:
                raise RuntimeError("lores stream dimensions may not exceed main stream")
            if lores["format"] not in ("YUV420", "YVU420"):
                raise RuntimeError("lores stream must be YUV")
        for name in config["controls"]:
            real = "FrameDurationLimits" if name == "FrameRate" else name
            if real not in self.camera_controls:
                raise RuntimeError(f"Control {real} is not advertised by libcamera")
        bit_depth = sensor.get("bit_depth") or self._bit_depth((config["raw"] or {}).get("format")
                                                               or self.sensor.modes[0]["format"])
        raw = config["raw"]
        output_size = sensor.get("output_size") or (raw["size"] if raw is not None else main["size"])
        self.mode = min(self.sensor.modes, key=lambda m: _score(m, bit_depth, output_size))
        config["sensor"] = {"bit_depth": self.mode["bit_depth"], "output_size": self.mode["size"]}
        if raw is not None:
            raw["size"] = self.mode["size"]
        for name in ("main", "lores"):
            stream = config[name]
            if stream is not None:
                bytes_per_pixel = 3 if stream["format"] == "RGB888" else 1
                stream["stride"] = -(-stream["size"][0] * bytes_per_pixel // 128) * 128 + 64
        self.config = config

    @staticmethod
    def _bit_depth(fmt: str) -> int:
        return int("".join(c for c in fmt.split("_")[0] if c.isdigit()))

    def stream_configuration(self, name: str = "main") -> dict[str, Any]:
        assert self.config is not None
        return self.config[name]

    def start(self) -> None:
        self.calls.append("start")
        if self.config is None:
            raise RuntimeError("Camera has not been configured")
        self.started = True

    def capture_request(self, wait: Any = None, signal_function: Any = None,
                        flush: Any = None) -> CompletedRequest:
        assert self.config is not None
        self.waits.append(wait)
        number = len(self.requests)
        lost = BEHAVIOUR.fail_at is not None and number >= BEHAVIOUR.fail_at
        dry = sum(not r.released for r in self.requests) >= self.config["buffer_count"]
        with self._cond:
            if self.jobs or lost or dry or not self.started:  # no frame will come
                self.jobs.append("capture_request")
                if wait is None or wait is True:
                    raise RuntimeError("stand-in picamera2: capture_request would wait for ever")
                raise TimeoutError()  # concurrent.futures: no message; the job stays queued
        request = CompletedRequest(self, number)
        self.requests.append(request)
        return request

    def set_controls(self, controls: dict[str, Any]) -> None:
        for name in controls:
            if name not in self.camera_controls:
                raise RuntimeError(f"Control {name} is not advertised by libcamera")
        self.controls_set.append((len(self.requests), dict(controls)))

    def cancel_all_and_flush(self) -> None:
        self.calls.append("cancel_all_and_flush")
        with self._cond:
            self.cancelled += len(self.jobs)
            self.jobs.clear()
            self._cond.notify_all()

    def stop(self) -> None:
        self.calls.append("stop")
        self._stop()

    def _stop(self) -> None:
        if not self.started:
            return
        with self._cond:  # stop is a job too: it runs after those queued before it
            if not self._cond.wait_for(lambda: not self.jobs, BEHAVIOUR.stop_hang_limit):
                raise RuntimeError("stand-in picamera2: stop() is stuck behind a timed-out job (the real one "
                                   "waits for ever): call cancel_all_and_flush() first")
        self.started = False

    def close(self) -> None:
        self.calls.append("close")
        if self.closed:
            return
        self._stop()
        _HELD.discard(self.camera_num)
        self.closed = True
