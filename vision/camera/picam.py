"""The Raspberry Pi camera through picamera2 (``picamera2[:WxH][,key=value ...]``).

Written against picamera2's documented API (the Picamera2 manual; examples/capture_motion.py,
examples/controls.py, tests/autofocus_test.py in github.com/raspberrypi/picamera2).
picamera2 is imported in :meth:`Picamera2Source.open`, never at import time: it comes from
apt (``python3-picamera2``) and exists only on a Pi.

What the design avoids (the pitfalls picamera2's users report):

* Each frame goes to one caller: only :class:`vision.camera.Capture`'s thread reads.
* ONE ``capture_request()`` per frame: the main image, the lores Y plane and the metadata all
  come from that request, which is released at once (in a ``finally``). Separate
  ``capture_array`` / ``capture_metadata`` calls wait for separate frames and halve the rate.
* :data:`BUFFER_COUNT` buffers (picamera2's video default is 6): more can exhaust CMA memory
  on a Pi 4 at 1280x720.
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
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from vision.camera.frame import CameraError, Frame

__all__ = [
    "AF_MODE_MANUAL", "BUFFER_COUNT", "CAMERA_FPS", "CAMERA_SIZE", "DEFAULT_LENS", "ExposureLock",
    "Picamera2Source", "lores_size",
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
LORES_WIDTH = 320
"""Width of the lores (grey, motion) stream; its height keeps the main stream's aspect."""
AF_MODE_MANUAL = 0
"""libcamera's ``controls.AfModeEnum.Manual`` (named here so libcamera need not be imported)."""
SETTLE_SECONDS = 1.0
"""Exposure, gain and colour gains must hold this long before they are locked."""
SETTLE_GIVE_UP_SECONDS = 5.0
"""Lock whatever the camera has reached after this long, settled or not."""
READ_TIMEOUT = 3.0
"""Seconds to wait for a frame before calling the camera lost."""
INSTALL_HINT = ("install it with `sudo apt install -y python3-picamera2` and make the venv with "
                "`python3 -m venv --system-site-packages .venv`")


def lores_size(main: tuple[int, int]) -> tuple[int, int]:
    """The lores stream's size: :data:`LORES_WIDTH` wide, the main stream's aspect, even height."""
    width, height = main
    return LORES_WIDTH, max(2, round(LORES_WIDTH * height / width / 2) * 2)


class ExposureLock:
    """Decides when auto exposure and white balance have settled, from each frame's metadata.

    Settled: ``ExposureTime``, ``AnalogueGain`` and ``ColourGains`` each within ``tolerance``
    (relative) over the last ``window`` frames, or the camera reports ``AeLocked``; after
    ``give_up`` frames it locks regardless. :meth:`update` returns the controls to set, once.

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
        if not (metadata.get("AeLocked") is True or self._steady() or self._seen >= self.give_up):
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
    def _values(metadata: Mapping[str, Any]) -> tuple[float, ...]:
        gains = tuple(metadata.get("ColourGains") or ())
        return (float(metadata["ExposureTime"]), float(metadata["AnalogueGain"]), *map(float, gains))

    def _steady(self) -> bool:
        if len(self._recent) < self.window or len({len(v) for v in self._recent}) != 1:
            return False
        for column in zip(*self._recent, strict=True):
            low, high = min(column), max(column)
            if high - low > self.tolerance * max(abs(high), 1e-9):
                return False
        return True


def _describe(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


class Picamera2Source:
    """The Pi camera: main stream ``size`` as BGR, lores Y plane as ``Frame.lores``, each
    request's metadata as ``Frame.metadata``. ``lens`` is the manual focus in dioptres (used
    when the camera has autofocus, i.e. ``"AfMode"`` in ``camera_controls``: Camera Module 3);
    ``lock`` locks exposure and white balance once they settle.

    >>> cam = Picamera2Source((1640, 1232), fps=15)
    >>> cam.spec, cam.live, cam.fps, cam.lores
    ('picamera2:1640x1232,fps=15', True, 15.0, (320, 240))
    """

    live = True

    def __init__(self, size: tuple[int, int] = CAMERA_SIZE, *, fps: float = CAMERA_FPS,
                 lens: float = DEFAULT_LENS, lock: bool = True, spec: str | None = None) -> None:
        if size[0] < 64 or size[1] < 64:
            raise CameraError(f"picamera2: size {size[0]}x{size[1]} is too small")
        if not 0 < fps <= 120:
            raise CameraError(f"picamera2: fps must be above 0 and at most 120, not {fps:g}")
        if lens < 0:
            raise CameraError(f"picamera2: lens is in dioptres (1 / metres), 0 or more, not {lens:g}")
        self.size = size
        self.fps: float | None = float(fps)
        self.lens = lens
        self.lock = lock
        self.lores = lores_size(size)
        options = [f"fps={fps:g}"] * (fps != CAMERA_FPS) + [f"lens={lens:g}"] * (lens != DEFAULT_LENS)
        self.spec = spec or ",".join([f"picamera2:{size[0]}x{size[1]}", *options, *["lock=off"] * (not lock)])
        self._cam: Any = None
        self._lores_shape = self.lores
        self._exposure: ExposureLock | None = None
        self._next = 0
        self._opened_at = 0.0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # Pi only
        except ImportError as exc:
            raise CameraError(f"picamera2 is not installed: {INSTALL_HINT}") from exc
        try:
            self._cam = Picamera2()
        except Exception as exc:
            raise CameraError(f"no Pi camera found ({_describe(exc)}): check the ribbon cable and "
                              "`rpicam-hello --list-cameras`") from exc
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

    def _start(self, cam: Any) -> None:
        config = cam.create_video_configuration(
            main={"size": self.size, "format": "RGB888"},
            lores={"size": self.lores, "format": "YUV420"},
            buffer_count=BUFFER_COUNT,
            controls={"FrameRate": self.fps})
        cam.configure(config)
        # configure() may align the sizes; the lores array is (h * 3 / 2) x stride, Y plane first.
        width, height = cam.stream_configuration("lores")["size"]
        self._lores_shape = (int(width), int(height))
        cam.start()
        if "AfMode" in cam.camera_controls:
            low, high, _ = cam.camera_controls.get("LensPosition", (0.0, float("inf"), None))
            if not low <= self.lens <= high:
                raise CameraError(f"picamera2: lens={self.lens:g} is outside this camera's {low:g}..{high:g}")
            cam.set_controls({"AfMode": AF_MODE_MANUAL, "LensPosition": self.lens})

    def read(self) -> Frame | None:
        cam = self._cam
        if cam is None:
            raise CameraError(f"{self.spec}: read before open")
        try:
            request = cam.capture_request(wait=READ_TIMEOUT)
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped giving frames: {_describe(exc)}") from exc
        width, height = self._lores_shape
        try:
            image = request.make_array("main")
            grey = request.make_array("lores")[:height, :width]
            metadata = request.get_metadata()
        except Exception as exc:
            raise CameraError(f"the Pi camera gave a broken frame: {_describe(exc)}") from exc
        finally:
            request.release()
        if self._exposure is not None:
            controls = self._exposure.update(metadata)
            if controls is not None:
                # Only what this camera advertises: set_controls raises on any other name, and
                # newer libcamera turns AeEnable into ExposureTimeMode/AnalogueGainMode; the
                # fixed ExposureTime and AnalogueGain alone lock exposure either way.
                controls = {k: v for k, v in controls.items() if k in cam.camera_controls}
                try:
                    cam.set_controls(controls)
                except Exception as exc:
                    raise CameraError(f"the Pi camera refused the exposure lock: {_describe(exc)}") from exc
                log.info("picamera2: exposure and white balance locked: %s", controls)
        number, self._next = self._next, self._next + 1
        return Frame(image, number, time.monotonic() - self._opened_at, lores=grey, metadata=metadata)

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is None:
            return
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception as exc:  # closing a failed camera: say so, go on
                log.warning("picamera2: %s failed while closing: %s", step.__name__, _describe(exc))
