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

* ``global_camera_info()`` is read once a process, as picamera2's camera manager is made once:
  a camera connected later is not listed (a ribbon camera is found only at boot).
* ``Picamera2()`` opens a real pipe (``notifymeread``, ``notifyme_w``) first and never closes
  it when construction fails: no camera listed raises ``IndexError``
  (``global_camera_info()[0]``), a camera held by another process raises
  ``RuntimeError("Camera __init__ sequence did not complete.")`` from libcamera's
  ``RuntimeError("Failed to acquire camera: Device or resource busy")``. The half-built object
  is left in the exception's traceback and its ``close()`` returns at once (it never opened),
  so the pipe stays open unless closed by hand (count ``/proc/self/fd``: :func:`open_fds`). A
  camera is held from construction until ``close()``.
* ``camera_controls`` has ``AeEnable`` on every libcamera (the Pi's tuning keeps it), and from
  0.5 ``ExposureTimeMode`` / ``AnalogueGainMode`` too.
* Camera memory (:attr:`Behaviour.cma`): ``configure`` allocates ``buffer_count`` buffers of
  every stream (main, lores and the raw stream a configuration has unless ``raw=None``: packed
  10 or 12 bits a pixel on a Pi 4, 8 compressed on a Pi 5) and fails with ``RuntimeError`` when
  they do not fit; ``sensor_modes`` configures the camera once per mode with 4 buffers of a
  640x480 preview and the mode's raw size (43-76 MB), so it can fail where the kept
  configuration fits. :data:`SCANS` counts the scans; ``peak`` the largest allocation.
* ``camera_properties["ScalerCropMaximum"]`` is the configured mode's crop; each request's
  metadata has ``ScalerCrop``: that crop cut to the main stream's aspect, centred, as libcamera.
* ``stop()`` raises ``RuntimeError`` :attr:`Behaviour.stop_fails` times (a camera that failed);
  ``close()`` calls it, and a ``close()`` that raised leaves the camera held.
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
* The main image is a scene, not a flat grey: grey at the request's number with a red patch in
  its top-left quarter, in each format's byte order (``RGB888``: B, G, R; ``BGR888``: R, G, B;
  ``XBGR8888``: R, G, B, 255; ``XRGB8888``: B, G, R, 255), so a swapped order shows.
* Pi 4 / Pi 5 (:attr:`Behaviour.platform`): a Pi 4 refuses a lores stream that is not YUV; the
  raw buffers differ in size, as above.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, TimeoutError  # picamera2 exports both
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["SENSORS", "CancelledError", "Picamera2", "TimeoutError", "open_fds"]


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
    # HQ camera: a cropped 10-bit mode; the full-field ones are 12-bit.
    "imx477": Sensor("imx477", (4056, 3040), (
        _mode("SRGGB10_CSI2P", (1332, 990), 120.05, (696, 528, 2664, 1980)),
        *(_mode("SRGGB12_CSI2P", size, fps, crop)
          for size, fps, crop in (((2028, 1080), 50.03, (0, 440, 4056, 2160)),
                                  ((2028, 1520), 40.01, (0, 0, 4056, 3040)),
                                  ((4056, 3040), 10.0, (0, 0, 4056, 3040))))), autofocus=False),
    # Global Shutter camera: one mode, the whole sensor.
    "imx296": Sensor("imx296", (1456, 1088), (
        _mode("SRGGB10_CSI2P", (1456, 1088), 60.38, (0, 0, 1456, 1088)),), autofocus=False),
}


def settling(n: int) -> dict[str, Any]:
    """Metadata of request ``n``: auto exposure moves for 5 frames, then holds (``AeState``
    converged from then); the white balance's colour gains move for 10, as the Pi's do."""
    k, g = min(n, 5), min(n, 10)
    return {"ExposureTime": 10_000 + 2_000 * k, "AnalogueGain": 1.0 + 0.25 * k,
            "ColourGains": (1.5 + 0.05 * g, 1.8), "AeState": 2 if n >= 5 else 1,
            "SensorTimestamp": 1_000_000_000 + 100_000_000 * n}


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
    platform: str = "pi4"
    """``"pi4"`` or ``"pi5"``: lores formats and raw buffer sizes differ."""
    cma: int | None = None
    """Bytes of camera memory a configuration may allocate (None: no limit)."""
    stop_fails: int = 0
    """How many ``stop()`` calls raise (a camera that failed), then they work again."""


BEHAVIOUR = Behaviour()
CAMERAS: list[Picamera2] = []
"""Every camera built, in order."""
ATTEMPTS = 0
"""``Picamera2()`` calls, failed ones included."""
SCANS = 0
"""``sensor_modes`` scans (each configures the camera once per mode)."""
_HELD: set[int] = set()
_LISTED: list[list[dict[str, Any]]] = []
"""The camera manager's list, made at the first ``global_camera_info()`` of the process."""


def reset() -> None:
    global BEHAVIOUR, ATTEMPTS, SCANS
    BEHAVIOUR = Behaviour()
    CAMERAS.clear()
    _HELD.clear()
    _LISTED.clear()
    ATTEMPTS = SCANS = 0


def open_fds() -> int:
    """Descriptors this process has open (Linux)."""
    return len(os.listdir("/proc/self/fd"))


def _scene(width: int, height: int, value: int) -> np.ndarray:
    """The scene as R, G, B planes: grey at ``value``, a red patch in the top-left quarter."""
    scene = np.full((height, width, 3), value, np.uint8)
    scene[: max(1, height // 4), : max(1, width // 4)] = (200, 40, 30)
    return scene


_ORDER = {"RGB888": (2, 1, 0), "BGR888": (0, 1, 2), "XBGR8888": (0, 1, 2), "XRGB8888": (2, 1, 0)}
"""Each format's bytes as indices into R, G, B (the Picamera2 manual's table of formats)."""


def _bytes_per_pixel(fmt: str) -> float:
    if fmt in ("XBGR8888", "XRGB8888"):
        return 4
    if fmt in ("RGB888", "BGR888"):
        return 3
    if fmt.startswith(("YUV", "YVU")):
        return 1.5
    if "PISP_COMP" in fmt:
        return 1
    depth = int("".join(c for c in fmt.split("_")[0] if c.isdigit()) or 16)
    return depth / 8 if fmt.endswith("CSI2P") else 2


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
        if stream["format"] in _ORDER:
            planes = _scene(width, height, value)[:, :, list(_ORDER[stream["format"]])]
            if stream["format"].startswith("X"):
                planes = np.dstack([planes, np.full((height, width), 255, np.uint8)])
            return np.ascontiguousarray(planes)
        if stream["format"] == "YUV420":
            array = np.full((height * 3 // 2, stream["stride"]), 128, np.uint8)
            array[:height, :] = 255  # the padding past the width
            array[:height, :width] = value
            return array
        raise RuntimeError(f"the fake does not make {stream['format']}")

    def get_metadata(self) -> dict[str, Any]:
        self._check()
        self.taken.append("metadata")
        return {"ScalerCrop": self.camera.scaler_crop, **BEHAVIOUR.metadata(self.number)}

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
        if not _LISTED:  # the camera manager, made once a process
            model = SENSORS[BEHAVIOUR.sensor].model
            _LISTED.append([{"Model": model, "Location": 2, "Rotation": 180, "Num": 0,
                             "Id": f"/base/soc/i2c0mux/i2c@1/{model}@10"}] if BEHAVIOUR.present else [])
        return copy.deepcopy(_LISTED[0])

    def __init__(self, camera_num: int = 0) -> None:
        global ATTEMPTS
        ATTEMPTS += 1
        self.is_open = False
        self.calls: list[str] = []
        """The names of the lifecycle calls, in order."""
        self.notifyme_r, self.notifyme_w = os.pipe2(os.O_NONBLOCK)  # made first, as the real one
        self.notifymeread = os.fdopen(self.notifyme_r, "rb")
        cameras = Picamera2.global_camera_info()
        camera_num = cameras[camera_num]["Num"]  # IndexError with no camera, as the real one
        if BEHAVIOUR.busy or camera_num in _HELD:
            try:
                raise RuntimeError("Failed to acquire camera: Device or resource busy")
            except RuntimeError as exc:
                raise RuntimeError("Camera __init__ sequence did not complete.") from exc
        self.is_open = True
        _HELD.add(camera_num)
        self.camera_num = camera_num
        self.sensor = SENSORS[BEHAVIOUR.sensor]
        array = (0, 0, *self.sensor.pixel_array)
        self.camera_controls: dict[str, tuple[Any, Any, Any]] = {
            "ExposureTime": (26, 220_000_000, 20_000), "AnalogueGain": (1.0, 16.0, 1.0),
            "ColourGains": (0.0, 32.0, None), "FrameDurationLimits": (33_333, 120_000_000, 33_333),
            "AwbEnable": (False, True, None), "NoiseReductionMode": (0, 4, 0),
            "AeFlickerMode": (0, 1, 0), "AeFlickerPeriod": (100, 1_000_000, None),
            "ScalerCrop": ((0, 0, 64, 64), array, array), "AeEnable": (False, True, None)}
        if BEHAVIOUR.libcamera >= (0, 5):
            self.camera_controls |= {"ExposureTimeMode": (0, 1, 0), "AnalogueGainMode": (0, 1, 0)}
        if self.sensor.autofocus if BEHAVIOUR.autofocus is None else BEHAVIOUR.autofocus:
            self.camera_controls |= {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.camera_controls = {k: v for k, v in self.camera_controls.items()
                                if k not in BEHAVIOUR.not_advertised}
        width, height = self.sensor.pixel_array
        self.camera_properties = {"Model": self.sensor.model, "PixelArraySize": (width, height),
                                  "PixelArrayActiveAreas": [(0, 0, width, height)], "Location": 2,
                                  "Rotation": 180, "ScalerCropMaximum": (0, 0, width, height)}
        self.scaler_crop: tuple[int, int, int, int] = (0, 0, width, height)
        """The crop of the configured mode cut to the main stream's aspect (``ScalerCrop``)."""
        self.allocated = 0
        """Bytes of camera memory the configuration holds."""
        self.peak = 0
        """The most bytes of camera memory any configuration of this camera asked for."""
        self.config: dict[str, Any] | None = None
        self.mode: dict[str, Any] | None = None
        """The sensor mode the last ``configure`` chose."""
        self.started = False
        self.closed = False
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
        global SCANS
        SCANS += 1
        self.calls.append("sensor_modes")
        for mode in self.sensor.modes:  # the real one configures the camera for each mode
            raw = {"format": mode["format"], "size": mode["size"]}
            self.configure(self.create_video_configuration(main={"size": (640, 480)}, raw=raw,
                                                           buffer_count=4))
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
        raw_format = "BGGR16_PISP_COMP1" if BEHAVIOUR.platform == "pi5" else self.sensor.modes[0]["format"]
        raw = _stream({"format": raw_format, "size": main["size"]},
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
            if lores["format"] not in ("YUV420", "YVU420") and BEHAVIOUR.platform == "pi4":
                raise RuntimeError("lores stream must be YUV")
        for name in config["controls"]:
            real = "FrameDurationLimits" if name == "FrameRate" else name
            if real not in self.camera_controls:
                raise RuntimeError(f"Control {real} is not advertised by libcamera")
        raw_format = (config["raw"] or {}).get("format") or self.sensor.modes[0]["format"]
        bit_depth = sensor.get("bit_depth") or (
            self.sensor.modes[0]["bit_depth"] if "PISP" in raw_format else self._bit_depth(raw_format))
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
        need = config["buffer_count"] * sum(
            int(config[name]["size"][0] * config[name]["size"][1] * _bytes_per_pixel(config[name]["format"]))
            for name in ("main", "lores", "raw") if config[name] is not None)
        self.peak = max(self.peak, need)
        self.allocated = 0  # the last configuration's buffers are freed first
        if BEHAVIOUR.cma is not None and need > BEHAVIOUR.cma:
            raise RuntimeError(f"Failed to allocate buffers: Cannot allocate memory ({need} bytes)")
        self.allocated = need
        x, y, w, h = self.mode["crop_limits"]
        self.camera_properties["ScalerCropMaximum"] = (x, y, w, h)
        aspect = main["size"][0] / main["size"][1]
        cw, ch = (round(h * aspect), h) if aspect < w / h else (w, round(w / aspect))
        self.scaler_crop = (x + (w - cw) // 2, y + (h - ch) // 2, cw, ch)
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
        if BEHAVIOUR.stop_fails > 0:
            BEHAVIOUR.stop_fails -= 1
            raise RuntimeError("Failed to stop camera")
        with self._cond:  # stop is a job too: it runs after those queued before it
            if not self._cond.wait_for(lambda: not self.jobs, BEHAVIOUR.stop_hang_limit):
                raise RuntimeError("stand-in picamera2: stop() is stuck behind a timed-out job (the real one "
                                   "waits for ever): call cancel_all_and_flush() first")
        self.started = False

    def close(self) -> None:
        self.calls.append("close")
        if not self.is_open:  # as the real one: a camera that never opened keeps its pipe
            return
        self._stop()
        _HELD.discard(self.camera_num)
        self.notifymeread.close()
        os.close(self.notifyme_w)
        self.is_open = False
        self.closed = True
