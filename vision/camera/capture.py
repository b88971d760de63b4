"""The one capture thread: it owns a source and hands its frames to the tracker and the page.

picamera2 gives each frame to one caller, so nothing else reads a source: the tracker calls
:meth:`Capture.wait_frame`, the page :meth:`Capture.snapshot_jpeg` / :meth:`Capture.latest`.

Numbering. Every frame delivered is a :class:`Captured`: the source's :class:`Frame`
unchanged (``number`` is still the file's own frame index, or the camera's count since it
opened) plus ``seq``, the capture's own number: 1 for the first frame delivered, then +1 for
each, across reconnects and loops, so ``seq`` strictly increases and is never repeated while
``number`` starts again at 0 whenever the source is reopened.

Pacing. A live camera is never paced: a slow consumer gets the newest frame and skips the rest.
A file or folder with ``realtime=True`` is played at its own frame rate and skips likewise;
with ``realtime=False`` it is consumer-paced and lossless: the next frame is read only once
:meth:`Capture.wait_frame` has taken the last one (``crib track`` on a clip sees every frame).

A source that fails (``open()`` or ``read()`` raises, or a camera gives no frame) is closed,
the state becomes ``"lost"`` with the error, and a fresh source from ``make_source()`` is tried
after a back-off that doubles from ``backoff[0]`` to at most ``backoff[1]`` seconds (reset once
a frame arrives); when one opens the state is ``"running"`` again. A :class:`CameraError`
marked ``lasting`` (picamera2 that will not import) is not retried: the state is ``"failed"``.

>>> [b.next() for b in [Backoff(0.5, 10.0)] for _ in range(7)]
[0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

import cv2

from vision.camera.frame import CameraError, Frame, FrameSource

__all__ = ["STATES", "Backoff", "Capture", "Captured", "Pacer"]

log = logging.getLogger(__name__)

STATES = ("starting", "running", "lost", "failed", "ended", "stopped")
"""``status()["state"]``: before the first open; frames coming; failed, retrying; failed in a
way retrying cannot mend (a :class:`CameraError` with ``lasting``: the error says what to fix,
then restart); the file or folder is over; :meth:`Capture.stop` was called."""

FPS_WINDOW = 30
"""The measured rate is over the last this many frames."""


@dataclass(frozen=True, kw_only=True)
class Captured(Frame):
    """A :class:`Frame` as the capture delivered it, with its ``seq``.

    >>> import numpy as np
    >>> frame = Captured.of(Frame(np.zeros((2, 2, 3), np.uint8), number=7, time=0.7), seq=12)
    >>> frame.number, frame.seq, isinstance(frame, Frame)
    (7, 12, True)
    """

    seq: int
    """1 for the first frame the capture delivered, +1 for each after, across reconnects."""

    @classmethod
    def of(cls, frame: Frame, seq: int) -> Captured:
        return cls(**{f.name: getattr(frame, f.name) for f in fields(Frame)}, seq=seq)


class Backoff:
    """Seconds to wait before each retry: ``first``, doubling up to ``most``."""

    def __init__(self, first: float, most: float) -> None:
        if not 0 < first <= most:
            raise ValueError(f"back-off must be 0 < first <= most, not ({first}, {most})")
        self.first, self.most = first, most
        self._delay = first

    def next(self) -> float:
        delay, self._delay = self._delay, min(self._delay * 2, self.most)
        return delay

    def reset(self) -> None:
        self._delay = self.first


class Pacer:
    """When to deliver each frame of a file so it plays at its own speed: the first frame at
    once, frame ``t`` seconds later in the file ``t`` seconds later on ``clock``. Frames that are
    late are delivered at once (no catching up by skipping).

    >>> now = [100.0]
    >>> pacer = Pacer(lambda: now[0])
    >>> pacer.delay(0.0), pacer.delay(0.1)
    (0.0, 0.1)
    >>> now[0] = 100.25
    >>> pacer.delay(0.2), pacer.delay(0.3)
    (0.0, 0.05)
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._origin: float | None = None

    def delay(self, frame_time: float) -> float:
        now = self.clock()
        if self._origin is None:
            self._origin = now - frame_time
        return max(0.0, round(self._origin + frame_time - now, 9))


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if isinstance(exc, CameraError):
        return text or "camera failed"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Capture:
    """The capture thread for the sources ``make_source()`` builds (one at a time).

    ``on_status`` is called with :meth:`status` on every change of state and on each failed
    retry, from the capture thread (``"stopped"``: from the thread calling :meth:`stop`); what
    it raises is logged, never passed on. ``clock``
    (monotonic seconds) is for tests.
    """

    def __init__(self, make_source: Callable[[], FrameSource], *, realtime: bool = True, loop: bool = False,
                 backoff: tuple[float, float] = (0.5, 10.0),
                 on_status: Callable[[dict[str, Any]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        Backoff(*backoff)  # check it now, not in the thread
        self._make_source = make_source
        self._realtime = realtime
        self._loop = loop
        self._backoff = backoff
        self._on_status = on_status
        self._clock = clock
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._latest: Captured | None = None
        self._seq = 0
        self._taken = 0
        self._spec: str | None = None
        self._state = "starting"
        self._error: str | None = None
        self._retries = 0
        self._retry_in: float | None = None
        self._announced: tuple[object, ...] = ()
        self._since = time.time()
        self._arrivals: deque[float] = deque(maxlen=FPS_WINDOW)
        self._jpeg: tuple[tuple[int, int, int], bytes] | None = None

    # --- the consumer's side -------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("this Capture was already started")
        self._thread = threading.Thread(target=self._run, name="camera-capture", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """End the thread (promptly, even during a back-off) and close the source."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                log.warning("camera: the capture thread is still blocked in %s", self._spec)
        self._set_state("stopped", None)

    def __enter__(self) -> Capture:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def latest(self) -> Captured | None:
        """The newest frame delivered (the page's snapshot), or ``None`` before the first."""
        return self._latest

    def wait_frame(self, after: int, timeout: float) -> Captured | None:
        """The newest frame whose ``seq`` is above ``after``, waiting up to ``timeout`` seconds
        for one; ``None`` on timeout, or once the source has ended or the capture stopped and
        no such frame is left. Pass the last ``seq`` you got (0 at first)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                latest = self._latest
                if latest is not None and latest.seq > after:
                    if latest.seq > self._taken:
                        self._taken = latest.seq
                        self._cond.notify_all()
                    return latest
                remaining = deadline - time.monotonic()
                if self._state in ("ended", "stopped") or remaining <= 0:
                    return None
                self._cond.wait(remaining)

    def status(self) -> dict[str, Any]:
        """``{"source", "state", "error", "frames", "retries", "retry_in", "fps", "since"}``:
        the spec (``None`` until the first source is built), one of :data:`STATES`, the error
        while lost, frames delivered, retries so far, seconds until the next retry while lost,
        the measured frame rate while running, and the Unix time of the last change."""
        with self._cond:
            return self._status()

    def snapshot_jpeg(self, max_width: int = 640, quality: int = 70) -> bytes | None:
        """The latest frame as JPEG, scaled down to at most ``max_width`` pixels wide."""
        frame = self._latest
        if frame is None:
            return None
        key = (frame.seq, max_width, quality)
        cached = self._jpeg
        if cached is not None and cached[0] == key:
            return cached[1]
        image = frame.image
        height, width = image.shape[:2]
        if width > max_width:
            size = (max_width, max(1, round(height * max_width / width)))
            image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
        if not ok:
            return None
        self._jpeg = (key, data.tobytes())
        return self._jpeg[1]

    # --- the capture thread ----------------------------------------------------------------

    def _status(self) -> dict[str, Any]:
        times = self._arrivals
        fps = None
        if self._state == "running" and len(times) >= 2 and times[-1] > times[0]:
            fps = round((len(times) - 1) / (times[-1] - times[0]), 2)
        return {"source": self._spec, "state": self._state, "error": self._error, "frames": self._seq,
                "retries": self._retries, "retry_in": self._retry_in, "fps": fps, "since": self._since}

    def _set_state(self, state: str, error: str | None, retry_in: float | None = None) -> None:
        with self._cond:
            if self._state == "stopped" or (state, error, retry_in, self._retries) == self._announced:
                return
            self._announced = (state, error, retry_in, self._retries)
            if state != self._state:
                self._since = time.time()
                self._arrivals.clear()
            self._state, self._error, self._retry_in = state, error, retry_in
            snapshot = self._status()
            self._cond.notify_all()
        if self._on_status is not None:
            try:
                self._on_status(snapshot)
            except Exception:
                log.exception("camera: on_status raised (ignored)")

    def _run(self) -> None:
        backoff = Backoff(*self._backoff)
        while not self._stop.is_set():
            source: FrameSource | None = None
            try:
                source = self._make_source()
                with self._cond:
                    self._spec = source.spec
                source.open()
                self._set_state("running", None)
                delivered = self._play(source, backoff)
            except Exception as exc:
                if source is not None:
                    self._close(source)
                if isinstance(exc, CameraError) and exc.lasting:
                    log.error("camera %s failed: %s (not retried)", self._spec, _describe(exc))
                    self._set_state("failed", _describe(exc))
                    break
                delay = backoff.next()
                log.warning("camera %s lost: %s (retrying in %g s)", self._spec, _describe(exc), delay)
                self._set_state("lost", _describe(exc), retry_in=delay)
                if self._stop.wait(delay):
                    break
                with self._cond:
                    self._retries += 1
                continue
            self._close(source)
            if self._stop.is_set():
                break
            if not (self._loop and delivered):
                self._set_state("ended", None)
                break

    def _play(self, source: FrameSource, backoff: Backoff) -> int:
        """Deliver ``source``'s frames until it ends (returns how many) or the capture stops."""
        pacer = Pacer(self._clock) if self._realtime and not source.live else None
        lossless = not self._realtime and not source.live
        delivered = 0
        while not self._stop.is_set():
            if lossless:
                with self._cond:
                    while self._taken < self._seq and not self._stop.is_set():
                        self._cond.wait()
                if self._stop.is_set():
                    break
            frame = source.read()
            if frame is None:
                if source.live:
                    raise CameraError(f"{source.spec} gave no frame")
                break
            if pacer is not None:
                delay = pacer.delay(frame.time)
                if delay > 0 and self._stop.wait(delay):
                    break
            with self._cond:
                self._seq += 1
                self._latest = Captured.of(frame, self._seq)
                self._arrivals.append(self._clock())
                self._cond.notify_all()
            delivered += 1
            backoff.reset()
        return delivered

    @staticmethod
    def _close(source: FrameSource) -> None:
        try:
            source.close()
        except Exception as exc:
            log.warning("camera %s: close failed: %s", source.spec, _describe(exc))
