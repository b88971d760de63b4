"""The Raspberry Pi camera through picamera2 (``picamera2[:WxH][,key=value ...]``).

Written against picamera2 0.3.36 (picamera2/picamera2.py, the Picamera2 manual; examples and
tests/wait_cancel_test.py in github.com/raspberrypi/picamera2). picamera2 is imported in
:meth:`Picamera2Source.open`, never at import time: it comes from apt
(``python3-picamera2``) and exists only on a Pi.

What the design avoids (the pitfalls picamera2's users report):

* Each frame goes to one caller: only :class:`vision.camera.Capture`'s thread reads.
* ONE ``capture_request()`` per frame: the main image, the lores Y plane and the metadata all
  come from that request, which is released at once (in a ``finally``). Separate
  ``capture_array`` / ``capture_metadata`` calls wait for separate frames and halve the rate.
* :data:`BUFFER_COUNT` buffers (picamera2's video default is 6): more can exhaust CMA memory
  on a Pi 4 at 1280x720.
* A camera lost mid-game: ``capture_request(wait=3)`` raises ``TimeoutError`` but leaves its
  job queued, and ``stop()`` would wait behind it for ever; :meth:`Picamera2Source.close`
  calls ``cancel_all_and_flush()`` first, as picamera2's own tests do.
* A cropped picture: with no ``sensor=`` picamera2 picks the sensor mode nearest the main
  size, for 1280x720 a cropped 1920x1080 mode on a Camera Module v1 or v2; the smallest
  full-field mode is asked for instead (:func:`full_field_mode`). The modes are read once a
  process (picamera2's ``sensor_modes`` configures the camera once per mode, 43-76 MB at the
  peak); where that cannot get the memory the sensor's own table (:data:`FULL_FIELD`) is used,
  and a configuration that cannot get its buffers is tried with fewer, never a cropped mode.
* No raw stream (``raw=None``): the backend never reads one, and it is 10-19 MB of buffers.
* Leaked descriptors: a failed ``Picamera2()`` (the camera busy) leaves its pipe open and its
  ``close()`` returns at once; the pipe is closed here (:func:`_release_half_built`). No camera
  is constructed while ``global_camera_info()`` lists none.
* picamera2 that will not import (a NumPy from pip over apt's: ``ValueError: numpy.dtype size
  changed``) is one line saying the fix, and not retried (``CameraError.lasting``).
* Continuous autofocus hunts over a still table: a Camera Module 3 is put in manual focus at
  ``lens`` dioptres (1 / distance in metres), :data:`DEFAULT_LENS` for a mast ~70 cm high.
* Exposure and white balance drift with hands and sleeves over the table: once they have
  settled they are locked (:class:`ExposureLock`), as examples/controls.py does.

The main stream is ``"RGB888"``, whose arrays are B, G, R byte order: OpenCV's order, no
conversion (the Picamera2 manual's table of image formats, "RGB888 - 24 bits per pixel,
ordered [B, G, R]"; picamera2/request.py maps ``"RGB888"`` to PIL's ``"BGR"`` mode).

>>> lores_size((1280, 720)), lores_size((640, 480)), lores_size((1920, 1080))
((320, 180), (320, 240), (320, 180))
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from vision.camera.frame import CameraError, Frame

__all__ = [
    "AF_MODE_MANUAL", "BUFFER_COUNT", "CAMERA_FPS", "CAMERA_SIZE", "DEFAULT_LENS", "FEWER_BUFFERS",
    "FULL_FIELD", "MIN_WIDTH", "WHOLE_FIELD", "ExposureLock", "Picamera2Source", "field_of_view",
    "full_field_mode", "lores_size",
]

log = logging.getLogger(__name__)

CAMERA_SIZE = (1280, 720)
"""Main stream size unless the spec gives one."""
CAMERA_FPS = 10.0
"""Frame rate asked for unless ``fps=`` is given: plenty for cards laid by hand, light on a Pi."""
DEFAULT_LENS = round(1 / 0.7, 2)
"""Manual focus in dioptres (1 / metres): 1.43 focuses at 70 cm, the mast's height."""
BUFFER_COUNT = 4
"""Frame buffers: more than 4-5 can exhaust CMA memory on a Pi 4."""
FEWER_BUFFERS = 2
"""Frame buffers where :data:`BUFFER_COUNT` cannot be had (a Pi Zero 2 W's camera memory)."""
LORES_WIDTH = 320
"""Width of the lores (grey, motion) stream; its height keeps the main stream's aspect."""
MIN_WIDTH = LORES_WIDTH
"""The narrowest main stream: picamera2 refuses a lores stream wider or taller than the main
one ("lores stream dimensions may not exceed main stream"), and the lores is 320 wide."""
MIN_HEIGHT = 64
"""The lowest main stream taken (the lores keeps its aspect, so it is never taller)."""
AF_MODE_MANUAL = 0
"""libcamera's ``controls.AfModeEnum.Manual`` (named here so libcamera need not be imported)."""
MODE_MANUAL = 1
"""libcamera's ``ExposureTimeModeManual`` and ``AnalogueGainModeManual`` (libcamera 0.5 on)."""
AE_FLICKER_MANUAL = 1
"""libcamera's ``controls.AeFlickerModeEnum.FlickerManual``: exposures in whole periods of
``AeFlickerPeriod`` (µs), which hides a mains lamp's flicker (``mains=50``: 10000 µs)."""
AE_STATE_CONVERGED = 2
"""libcamera's ``controls.AeStateEnum.AeStateConverged``: the ``AeState`` metadata that replaced
the boolean ``AeLocked`` (which older libcamera still reports)."""
SETTLE_SECONDS = 1.0
"""Exposure, gain and colour gains must hold this long before they are locked."""
SETTLE_GIVE_UP_SECONDS = 5.0
"""Lock whatever the camera has reached after this long, settled or not."""
READ_TIMEOUT = 3.0
"""Seconds to wait for a frame before calling the camera lost."""
CONSTRUCT_RETRY_SECONDS = 60.0
"""After a failed ``Picamera2()`` whose pipe could not be closed (:func:`_release_half_built`
found no half-built camera), the next construction waits this long: each such try leaks a
descriptor."""
INSTALL_HINT = ("install it with `sudo apt install -y python3-picamera2` and make the venv with "
                "`python3 -m venv --system-site-packages .venv`, then restart")
NUMPY_FIX = ("`.venv/bin/pip uninstall -y numpy`, then `.venv/bin/pip install -e '.[pi]'` (it keeps "
             "apt's NumPy; docs/web.md, Raspberry Pi), then restart")
CHECK_CABLE = ("power the Pi off, reseat the camera's ribbon cable at both ends and boot again (a "
               "ribbon camera is found only at boot); `rpicam-hello --list-cameras` should list it")
NO_CAMERA = f"no Pi camera found: {CHECK_CABLE}"
IN_USE = ("the camera is in use by another program (crib serve --camera, rpicam-hello or rpicam-vid): "
          "stop that program (the service: `sudo systemctl stop cribbage-companion`); a crib serve "
          "waiting for the camera takes it by itself once it is free")
STUCK = ("the camera did not let go after it failed: restart the companion "
         "(`sudo systemctl restart cribbage-companion`), or power the Pi off and on")
LOST = f"the camera stopped sending pictures (none for {READ_TIMEOUT:g} s): check its ribbon cable"
SHORT_OF_MEMORY = ("the camera could not get memory for its pictures ({}): ask for a smaller picture "
                   "(picamera2:1280x720) or give the camera more memory (a larger cma in "
                   "/boot/firmware/config.txt)")

FULL_FIELD: dict[str, tuple[tuple[int, int], tuple[tuple[int, int, int, float], ...]]] = {
    # sensor model: (PixelArraySize, its full-field modes (width, height, bit depth, fps)), as
    # `rpicam-hello --list-cameras` lists them; used only where picamera2's sensor_modes fails.
    "ov5647": ((2592, 1944), ((1296, 972, 10, 43.25), (2592, 1944, 10, 15.63))),  # Camera Module v1
    "imx219": ((3280, 2464), ((1640, 1232, 10, 41.85), (3280, 2464, 10, 21.19))),  # v2
    "imx708": ((4608, 2592), ((2304, 1296, 10, 56.03), (4608, 2592, 10, 14.35))),  # Camera Module 3
    "imx477": ((4056, 3040), ((2028, 1520, 12, 40.01), (4056, 3040, 12, 10.0))),  # HQ
    "imx296": ((1456, 1088), ((1456, 1088, 10, 60.38),)),  # Global Shutter
}
"""The official sensors' full-field modes (the Camera Module 3 Wide and NoIR are ``imx708_*``)."""
WHOLE_FIELD = {"imx708": 66.0, "imx708_noir": 66.0, "imx708_wide": 102.0, "imx708_wide_noir": 102.0}
"""Horizontal field of view (degrees) over the whole sensor's width, for the cameras with
autofocus (the lens advice of :mod:`vision.camera.check`); others are focused by a lens ring."""

_construct_failed: dict[str, Any] = {"at": None, "error": ""}
"""The last failed ``Picamera2()`` whose pipe stayed open: when (monotonic) and what was said
(see :data:`CONSTRUCT_RETRY_SECONDS`)."""
_modes_of: dict[str, tuple[list[dict[str, Any]], str]] = {}
"""The sensor modes of each camera (by ``global_camera_info()``'s ``Id``) and where they came
from, read once a process: picamera2's ``sensor_modes`` configures the camera once per mode."""
_unreleased: dict[str, str] = {}
"""Cameras (by ``Id``) this process failed to close: a busy error for them is :data:`STUCK`."""


def lores_size(main: tuple[int, int]) -> tuple[int, int]:
    """The lores stream's size: :data:`LORES_WIDTH` wide, the main stream's aspect, even height:
    for an even ``main`` at least :data:`MIN_WIDTH` wide, never wider or taller than it."""
    width, height = main
    return LORES_WIDTH, max(2, round(LORES_WIDTH * height / width / 2) * 2)


def field_of_view(whole: float, crop_width: float, sensor_width: float) -> float:
    """The horizontal field of view (degrees) of a picture showing ``crop_width`` of a sensor
    ``sensor_width`` wide (both in the sensor's pixels, as ``ScalerCrop`` and
    ``PixelArraySize``) whose whole width sees ``whole`` degrees.

    A Camera Module 3 (66° over 4608 px) giving a 4:3 picture: libcamera crops its 16:9 sensor
    to 3456 px, 51.9°:

    >>> round(field_of_view(66.0, 4608, 4608), 1), round(field_of_view(66.0, 3456, 4608), 1)
    (66.0, 51.9)
    """
    share = max(0.0, min(1.0, crop_width / sensor_width))
    return math.degrees(2 * math.atan(share * math.tan(math.radians(whole / 2))))


def _table_modes(model: str) -> list[dict[str, Any]]:
    """:data:`FULL_FIELD`'s modes of ``model`` (``imx708_wide`` is an ``imx708``) as picamera2
    lists them, or none for a sensor not in it."""
    base = next((name for name in FULL_FIELD if model == name or model.startswith(f"{name}_")), None)
    if base is None:
        return []
    (width, height), modes = FULL_FIELD[base]
    return [{"size": (w, h), "bit_depth": depth, "fps": fps, "crop_limits": (0, 0, width, height)}
            for w, h, depth, fps in modes]


def full_field_mode(modes: Sequence[Mapping[str, Any]], pixel_array: Sequence[int] | None,
                    size: tuple[int, int], fps: float) -> Mapping[str, Any] | None:
    """The sensor mode to ask for: of the modes (picamera2's ``sensor_modes``) whose
    ``crop_limits`` cover the whole ``pixel_array`` (``camera_properties["PixelArraySize"]``),
    the smallest at least ``size`` in both directions that runs at ``fps`` or faster (the
    deeper bit depth of two the same size); if none is fast enough, the fastest of those large
    enough; None when no full-field mode is as large as ``size`` (picamera2 then picks).

    A Camera Module v2 (IMX219, 3280x2464) at 1280x720 gets its binned full-field mode, not
    the cropped 1920x1080 one picamera2 would pick:

    >>> full = (0, 0, 3280, 2464)
    >>> modes = [{"size": (640, 480), "bit_depth": 10, "fps": 206.65, "crop_limits": (1000, 752, 1280, 960)},
    ...          {"size": (1640, 1232), "bit_depth": 10, "fps": 41.85, "crop_limits": full},
    ...          {"size": (1920, 1080), "bit_depth": 10, "fps": 47.57, "crop_limits": (680, 692, 1920, 1080)},
    ...          {"size": (3280, 2464), "bit_depth": 10, "fps": 21.19, "crop_limits": full}]
    >>> [full_field_mode(modes, (3280, 2464), size, fps)["size"]
    ...  for size, fps in [((1280, 720), 10), ((1920, 1080), 10), ((1280, 720), 50)]]
    [(1640, 1232), (3280, 2464), (1640, 1232)]
    >>> full_field_mode(modes, (3280, 2464), (4000, 3000), 10) is None
    True
    """
    if not pixel_array or len(pixel_array) != 2:
        return None
    whole = (0, 0, int(pixel_array[0]), int(pixel_array[1]))
    full = [m for m in modes if "size" in m and "bit_depth" in m
            and tuple(int(v) for v in m.get("crop_limits", ())) == whole]
    large = [m for m in full if m["size"][0] >= size[0] and m["size"][1] >= size[1]]
    fast = [m for m in large if float(m.get("fps", 0.0)) >= fps]

    def area(m: Mapping[str, Any]) -> int:
        return int(m["size"][0]) * int(m["size"][1])

    if fast:
        return min(fast, key=lambda m: (area(m), -int(m["bit_depth"])))
    if large:
        return max(large, key=lambda m: (float(m.get("fps", 0.0)), -area(m), int(m["bit_depth"])))
    return None


class ExposureLock:
    """Decides when auto exposure and white balance have settled, from each frame's metadata.

    Settled: ``ExposureTime``, ``AnalogueGain`` and ``ColourGains`` each within ``tolerance``
    (relative) over the last ``window`` frames; or the camera reports auto exposure converged
    (``AeState`` == :data:`AE_STATE_CONVERGED`; older libcamera: ``AeLocked`` true) and the
    colour gains have held within ``tolerance`` over the last ``gains_window`` frames (white
    balance goes on moving after exposure has converged; libcamera reports no state for it);
    after ``give_up`` frames it locks regardless. :meth:`update` returns the controls to set, once.

    >>> lock = ExposureLock(window=3, give_up=10)
    >>> meta = {"ExposureTime": 20000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}
    >>> [lock.update(meta) for _ in range(2)]
    [None, None]
    >>> lock.update(meta)  # doctest: +NORMALIZE_WHITESPACE
    {'AeEnable': False, 'AwbEnable': False, 'ExposureTime': 20000, 'AnalogueGain': 2.0,
     'ColourGains': (1.8, 1.5)}
    >>> lock.done, lock.update(meta)
    (True, None)
    """

    KEYS = ("ExposureTime", "AnalogueGain", "ColourGains")

    def __init__(self, window: int, give_up: int, tolerance: float = 0.02) -> None:
        self.window = max(2, window)
        self.gains_window = max(3, self.window // 2)
        self.give_up = max(self.window, give_up)
        self.tolerance = tolerance
        self.done = False
        self._recent: deque[tuple[float, ...]] = deque(maxlen=self.window)
        self._seen = 0

    @classmethod
    def for_rate(cls, fps: float) -> ExposureLock:
        """The lock for a camera running at ``fps``: :data:`SETTLE_SECONDS` of frames to settle."""
        return cls(round(fps * SETTLE_SECONDS), round(fps * SETTLE_GIVE_UP_SECONDS))

    def update(self, metadata: Mapping[str, Any]) -> dict[str, Any] | None:
        if self.done:
            return None
        if "ExposureTime" not in metadata or "AnalogueGain" not in metadata:
            self.done = True  # nothing to lock (a camera without auto exposure)
            return None
        self._seen += 1
        self._recent.append(self._values(metadata))
        gains_steady = "ColourGains" not in metadata or self._steady(-self.gains_window, 2)
        if not ((self.converged(metadata) and gains_steady) or self._steady()
                or self._seen >= self.give_up):
            return None
        self.done = True
        controls: dict[str, Any] = {"AeEnable": False}
        if "ColourGains" in metadata:
            controls["AwbEnable"] = False
        controls["ExposureTime"] = int(metadata["ExposureTime"])
        controls["AnalogueGain"] = float(metadata["AnalogueGain"])
        if "ColourGains" in metadata:
            controls["ColourGains"] = tuple(float(g) for g in metadata["ColourGains"])
        return controls

    @staticmethod
    def converged(metadata: Mapping[str, Any]) -> bool:
        """The camera says auto exposure has converged: ``AeState`` (libcamera 0.5 on), else
        the older ``AeLocked``.

        >>> [ExposureLock.converged(m) for m in ({"AeState": 2}, {"AeState": 1, "AeLocked": True},
        ...                                      {"AeLocked": True}, {})]
        [True, False, True, False]
        """
        if "AeState" in metadata:
            try:
                return int(metadata["AeState"]) == AE_STATE_CONVERGED
            except (TypeError, ValueError):
                return False
        return metadata.get("AeLocked") is True

    @staticmethod
    def _values(metadata: Mapping[str, Any]) -> tuple[float, ...]:
        gains = tuple(metadata.get("ColourGains") or ())
        return (float(metadata["ExposureTime"]), float(metadata["AnalogueGain"]), *map(float, gains))

    def _steady(self, last: int = 0, first_column: int = 0) -> bool:
        """The values (from ``first_column`` on) held within the tolerance over the window, or
        over its ``-last`` newest frames."""
        recent = list(self._recent)[last:]
        if len(recent) < (-last or self.window) or len({len(v) for v in recent}) != 1:
            return False
        for column in list(zip(*recent, strict=True))[first_column:]:
            low, high = min(column), max(column)
            if high - low > self.tolerance * max(abs(high), 1e-9):
                return False
        return True


def _describe(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and the exceptions it was raised from (picamera2 wraps libcamera's)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _busy(exc: BaseException) -> bool:
    """``Picamera2()`` failed because another process holds the camera: libcamera's
    ``Camera.acquire()`` raises "Failed to acquire camera: Device or resource busy", which
    picamera2 wraps in "Camera __init__ sequence did not complete."."""
    for link in _chain(exc):
        text = str(link).lower()
        if "failed to acquire" in text or "resource busy" in text or getattr(link, "errno", None) == 16:
            return True
    return False


def _innermost(exc: BaseException) -> str:
    """The first line of the deepest cause (what went wrong, not picamera2's wrapper)."""
    return _describe(_chain(exc)[-1])


def _import_error(exc: BaseException) -> CameraError:
    """What ``import picamera2`` raising ``exc`` means, in one line with its fix; never retried.

    >>> _import_error(ModuleNotFoundError("No module named 'picamera2'", name="picamera2")).args[0]
    ... # doctest: +ELLIPSIS
    'picamera2 is not installed: install it with `sudo apt install -y python3-picamera2` ...'
    >>> print(_import_error(ValueError("numpy.dtype size changed, may indicate binary "
    ...                                "incompatibility. Expected 96 from C header, got 88")))
    ... # doctest: +ELLIPSIS
    picamera2 cannot load: the venv's NumPy ... is not the apt NumPy (1.24) ... `.venv/bin/pip uninstall ...
    """
    if isinstance(exc, ImportError) and exc.name == "picamera2":
        return CameraError(f"picamera2 is not installed: {INSTALL_HINT}", lasting=True)
    text = " ".join(str(link) for link in _chain(exc)).lower()
    if "numpy" in text and any(sign in text for sign in (
            "dtype size changed", "binary incompatib", "compiled using numpy", "_array_api",
            "multiarray failed to import")):
        import numpy

        return CameraError(f"picamera2 cannot load: the venv's NumPy {numpy.__version__} is not the apt "
                           f"NumPy (1.24) picamera2 is built for ({_describe(_chain(exc)[-1])}): {NUMPY_FIX}",
                           lasting=True)
    return CameraError(f"picamera2 cannot load ({type(exc).__name__}: {_describe(exc)}): reinstall it with "
                       "`sudo apt install --reinstall -y python3-picamera2` and make sure the venv was made "
                       "with --system-site-packages, then restart", lasting=True)


def _release_half_built(exc: BaseException, picamera2: type) -> bool:
    """Close what a failed ``Picamera2()`` left open, and say whether it was found.

    picamera2 0.3 opens a pipe (``notifymeread``, ``notifyme_w``) before it acquires the camera;
    when acquiring fails the half-built object is only in the exception's traceback, and its
    ``close()`` returns at once (it never opened), so the pipe would stay open for the life of
    the process. Its write end is closed only when it is the pipe of its read end (both ends of
    one pipe share an inode), so a descriptor number reused meanwhile is never touched."""
    found = False
    for link in _chain(exc):
        tb = link.__traceback__
        while tb is not None:
            half = tb.tb_frame.f_locals.get("self")
            tb = tb.tb_next
            if not isinstance(half, picamera2):
                continue
            found = True
            try:
                half.close()  # returns at once for a camera that never opened
            except Exception as close_exc:
                log.debug("picamera2: close() of a failed camera raised %s", _describe(close_exc))
            reader, writer = getattr(half, "notifymeread", None), getattr(half, "notifyme_w", None)
            if reader is None or getattr(reader, "closed", True):
                continue
            try:
                same = isinstance(writer, int) and os.fstat(writer).st_ino == os.fstat(reader.fileno()).st_ino
                reader.close()
                if same:
                    os.close(writer)
            except OSError as os_exc:
                log.debug("picamera2: closing a failed camera's pipe: %s", os_exc)
    return found


class Picamera2Source:
    """The Pi camera: main stream ``size`` as BGR, lores Y plane as ``Frame.lores``, each
    request's metadata as ``Frame.metadata``. ``lens`` is the manual focus in dioptres (used
    when the camera has autofocus, i.e. ``"AfMode"`` in ``camera_controls``: Camera Module 3);
    ``lock`` locks exposure and white balance once they settle. ``size`` is made even (as
    picamera2 does) and must be at least :data:`MIN_WIDTH` x :data:`MIN_HEIGHT`.

    >>> cam = Picamera2Source((1640, 1232), fps=15)
    >>> cam.spec, cam.live, cam.fps, cam.lores
    ('picamera2:1640x1232,fps=15', True, 15.0, (320, 240))
    >>> Picamera2Source((641, 481)).size
    (640, 480)
    >>> Picamera2Source((160, 120))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    vision.camera.frame.CameraError: picamera2: size 160x120 is too small: ... at least 320x64 ...
    """

    live = True

    def __init__(self, size: tuple[int, int] = CAMERA_SIZE, *, fps: float = CAMERA_FPS,
                 lens: float = DEFAULT_LENS, lock: bool = True, mains: int | None = None,
                 spec: str | None = None) -> None:
        width, height = size[0] - size[0] % 2, size[1] - size[1] % 2  # picamera2's alignment
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            raise CameraError(f"picamera2: size {size[0]}x{size[1]} is too small: the Pi camera's picture "
                              f"is at least {MIN_WIDTH}x{MIN_HEIGHT} (its {LORES_WIDTH}-wide motion "
                              "stream may not be larger)")
        if not 0 < fps <= 120:
            raise CameraError(f"picamera2: fps must be above 0 and at most 120, not {fps:g}")
        if lens < 0:
            raise CameraError(f"picamera2: lens is in dioptres (1 / metres), 0 or more, not {lens:g}")
        self.size = (width, height)
        self.fps: float | None = float(fps)
        self.lens = lens
        self.lock = lock
        if mains not in (None, 50, 60):
            raise CameraError(f"picamera2: mains is 50 or 60 (Hz), not {mains}")
        self.mains = mains
        self.lores = lores_size(self.size)
        options = [f"fps={fps:g}"] * (fps != CAMERA_FPS) + [f"lens={lens:g}"] * (lens != DEFAULT_LENS)
        options += [f"mains={mains}"] * bool(mains)
        self.spec = spec or ",".join([f"picamera2:{size[0]}x{size[1]}", *options, *["lock=off"] * (not lock)])
        self.sensor_mode: Mapping[str, Any] | None = None
        """The sensor mode asked for once opened (None: picamera2's own choice)."""
        self.buffers = BUFFER_COUNT
        """Frame buffers in use once opened (:data:`FEWER_BUFFERS` where memory is short)."""
        self._cam: Any = None
        self._camera_id = ""
        self._whole_field: float | None = None
        self._sensor_width = 0.0
        self._lores_shape = self.lores
        self._exposure: ExposureLock | None = None
        self._next = 0
        self._opened_at = 0.0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # Pi only
        except Exception as exc:  # not only ImportError: a NumPy 2 over apt's raises ValueError
            raise _import_error(exc) from exc
        self._cam = self._construct(Picamera2)
        try:
            self._start(self._cam)
        except CameraError:
            self.close()
            raise
        except Exception as exc:
            self.close()
            raise CameraError(f"picamera2 could not start the camera: {_describe(exc)}") from exc
        assert self.fps is not None
        self._exposure = ExposureLock.for_rate(self.fps) if self.lock else None
        self._next, self._opened_at = 0, time.monotonic()

    def _construct(self, picamera2: Any) -> Any:
        """``Picamera2()``, only when a camera is listed; what a failed one left open is closed
        (:func:`_release_half_built`), and where that cannot be done the next try waits
        :data:`CONSTRUCT_RETRY_SECONDS`."""
        failed_at = _construct_failed["at"]
        if failed_at is not None and time.monotonic() - failed_at < CONSTRUCT_RETRY_SECONDS:
            raise CameraError(_construct_failed["error"])
        try:
            cameras = picamera2.global_camera_info()
        except Exception as exc:
            raise CameraError(f"{NO_CAMERA} ({_describe(exc)})") from exc
        if not cameras:
            raise CameraError(NO_CAMERA)
        self._camera_id = str(cameras[0].get("Id") or cameras[0].get("Model") or "camera 0")
        try:
            return picamera2()
        except Exception as exc:
            released = _release_half_built(exc, picamera2)
            if not _busy(exc):
                message = f"the Pi camera would not open ({_innermost(exc)}): {CHECK_CABLE}"
            elif self._camera_id in _unreleased:
                raise CameraError(STUCK, lasting=True) from exc
            else:
                message = IN_USE
            if not released:
                _construct_failed.update(at=time.monotonic(), error=message)
            raise CameraError(message) from exc

    def _modes(self, cam: Any) -> list[dict[str, Any]]:
        """The camera's sensor modes, read once a process: picamera2's ``sensor_modes``
        configures the camera once for each (4 buffers of the mode's size: 43-76 MB at the
        peak); where that fails (too little camera memory) :data:`FULL_FIELD`'s, said in the log."""
        known = _modes_of.get(self._camera_id)
        if known is not None:
            return known[0]
        try:
            modes, origin = [dict(m) for m in cam.sensor_modes], "picamera2"
        except Exception as exc:
            model = str(cam.camera_properties.get("Model", ""))
            modes, origin = _table_modes(model), "table"
            log.warning("picamera2: could not read the sensor modes (%s): %s", _describe(exc),
                        f"using the {model} modes it is known to have" if modes else
                        f"the {model or 'unknown'} sensor's modes are unknown: the picture may be cropped")
        _modes_of[self._camera_id] = (modes, origin)
        return modes

    def _sensor(self, cam: Any) -> dict[str, Any] | None:
        """``sensor=`` for the configuration: the full-field mode (:func:`full_field_mode`), or
        None to let picamera2 choose (no full-field mode as large as the picture)."""
        assert self.fps is not None
        pixel_array = cam.camera_properties.get("PixelArraySize")
        mode = full_field_mode(self._modes(cam), pixel_array, self.size, self.fps)
        self.sensor_mode = mode
        if mode is None:
            log.info("picamera2: no full-field sensor mode of %dx%d or more; picamera2 picks one", *self.size)
            return None
        if float(mode.get("fps", 0.0)) < self.fps:
            log.warning("picamera2: the full-field %dx%d mode runs at %g fps at most, below the %g asked for",
                        *mode["size"], mode["fps"], self.fps)
        return {"output_size": tuple(int(v) for v in mode["size"]), "bit_depth": int(mode["bit_depth"])}

    def _configure(self, cam: Any, sensor: dict[str, Any] | None) -> None:
        """Configure ``sensor``'s mode with :data:`BUFFER_COUNT` buffers, else (the camera's
        memory is short) with :data:`FEWER_BUFFERS`; never another mode. No raw stream."""
        for buffers in (BUFFER_COUNT, FEWER_BUFFERS):
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                lores={"size": self.lores, "format": "YUV420"},
                raw=None,
                buffer_count=buffers,
                controls={"FrameRate": self.fps},
                **({"sensor": sensor} if sensor else {}))
            try:
                cam.configure(config)
            except Exception as exc:
                if buffers == FEWER_BUFFERS:
                    raise CameraError(SHORT_OF_MEMORY.format(_describe(exc))) from exc
                log.warning("picamera2: the camera could not get memory for %d pictures (%s): trying %d "
                            "(a picture may be dropped now and then)", buffers, _describe(exc), FEWER_BUFFERS)
            else:
                self.buffers = buffers
                return

    def _start(self, cam: Any) -> None:
        self._configure(cam, self._sensor(cam))
        pixel_array = cam.camera_properties.get("PixelArraySize")
        crop = cam.camera_properties.get("ScalerCropMaximum")
        if pixel_array and crop and tuple(crop)[2:] != tuple(pixel_array):
            log.warning("picamera2: the picture shows only the middle %dx%d of the %dx%d sensor: ask for a "
                        "smaller picture to see all the table", *tuple(crop)[2:], *pixel_array)
        model = str(cam.camera_properties.get("Model", ""))
        self._whole_field = WHOLE_FIELD.get(model)
        self._sensor_width = float(pixel_array[0]) if pixel_array else 0.0
        # configure() may align the sizes; the lores array is (h * 3 / 2) x stride, Y plane first.
        width, height = cam.stream_configuration("lores")["size"]
        self._lores_shape = (int(width), int(height))
        cam.start()
        if "AfMode" in cam.camera_controls:
            low, high, _ = cam.camera_controls.get("LensPosition", (0.0, float("inf"), None))
            if not low <= self.lens <= high:
                raise CameraError(f"picamera2: lens={self.lens:g} is outside this camera's {low:g}..{high:g}")
            cam.set_controls({"AfMode": AF_MODE_MANUAL, "LensPosition": self.lens})
        if self.mains and "AeFlickerMode" in cam.camera_controls:
            # lamps on the mains flicker at twice its frequency: exposures of whole periods hide it
            cam.set_controls({"AeFlickerMode": AE_FLICKER_MANUAL, "AeFlickerPeriod": 500_000 // self.mains})
        elif self.mains:
            log.info("picamera2: this camera cannot avoid a lamp's flicker (no AeFlickerMode)")

    def read(self) -> Frame | None:
        cam = self._cam
        if cam is None:
            raise CameraError(f"{self.spec}: read before open")
        try:
            request = cam.capture_request(wait=READ_TIMEOUT)
        except TimeoutError as exc:  # picamera2's (concurrent.futures') TimeoutError: no message
            raise CameraError(LOST) from exc
        except Exception as exc:
            raise CameraError(f"the camera stopped sending pictures ({_describe(exc)})") from exc
        width, height = self._lores_shape
        try:
            image = request.make_array("main")
            grey = request.make_array("lores")[:height, :width]
            metadata = request.get_metadata()
        except Exception as exc:
            raise CameraError(f"the camera sent a broken picture ({_describe(exc)})") from exc
        finally:
            request.release()
        if self._exposure is not None:
            controls = self._exposure.update(metadata)
            if controls is not None:
                controls = self._lock_controls(controls, cam.camera_controls)
                try:
                    cam.set_controls(controls)
                except Exception as exc:
                    raise CameraError(f"the Pi camera refused the exposure lock: {_describe(exc)}") from exc
                log.info("picamera2: exposure and white balance locked: %s", controls)
                period = 500_000 / self.mains if self.mains else 0
                if controls.get("ExposureTime", period) < period:
                    log.warning("picamera2: the exposure (%.1f ms) is shorter than the lamp's flicker "
                                "(%.1f ms): mains=%d cannot take the bands out; dim the lamp or move it away",
                                controls["ExposureTime"] / 1000, period / 1000, self.mains)
        number, self._next = self._next, self._next + 1
        return Frame(image, number, time.monotonic() - self._opened_at, lores=grey, metadata=metadata,
                     field_of_view=self._field(metadata))

    def _field(self, metadata: Mapping[str, Any]) -> float | None:
        """The picture's horizontal field of view from the request's ``ScalerCrop`` (the part
        of the sensor it shows), for a camera in :data:`WHOLE_FIELD`; else None."""
        crop = metadata.get("ScalerCrop")
        if self._whole_field is None or not self._sensor_width or not crop or len(crop) != 4:
            return None
        return round(field_of_view(self._whole_field, float(crop[2]), self._sensor_width), 2)

    @staticmethod
    def _lock_controls(controls: Mapping[str, Any], advertised: Mapping[str, Any]) -> dict[str, Any]:
        """The lock as this camera takes it: only what it advertises (``set_controls`` raises on
        any other name). libcamera 0.5 has no ``AeEnable``: a fixed exposure needs
        ``ExposureTimeMode`` and ``AnalogueGainMode`` manual, set here where advertised (picamera2
        0.3.36 also sets them itself for a non-zero ``ExposureTime`` / ``AnalogueGain``)."""
        locked = dict(controls)
        if "ExposureTime" in locked:
            locked["ExposureTimeMode"] = MODE_MANUAL
        if "AnalogueGain" in locked:
            locked["AnalogueGainMode"] = MODE_MANUAL
        return {k: v for k, v in locked.items() if k in advertised}

    def close(self) -> None:
        """Cancel what is queued (a timed-out ``capture_request`` stays queued, and ``stop()``
        would wait behind it for ever), then stop and close the camera."""
        cam, self._cam = self._cam, None
        if cam is None:
            return
        for name in ("cancel_all_and_flush", "stop", "close"):
            step = getattr(cam, name, None)
            if step is None:  # picamera2 older than cancel_all_and_flush
                continue
            try:
                step()
            except Exception as exc:  # closing a failed camera: say so, go on
                log.warning("picamera2: %s failed while closing: %s", name, _describe(exc))
                if name == "close":  # the camera stays held by this process
                    _unreleased[self._camera_id] = _describe(exc)
            else:
                if name == "close":
                    _unreleased.pop(self._camera_id, None)
