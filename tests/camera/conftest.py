"""Fixtures of the camera tests: a scripted source for the capture thread, the fake picamera2."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from vision.camera import CameraError, Frame

from . import fake_picamera2 as stand_in

WAIT = 10.0
"""Generous limit for anything the tests wait for (a loaded 2-core machine is slow, not wrong)."""


class ScriptedSource:
    """A FrameSource that plays a script: ``frames`` frames (image filled with the frame
    number), then the end (``None``); or a :class:`CameraError` from ``open`` (``fail_open``) or
    from ``read`` after ``fail_after`` frames. With a ``gate`` each read first takes one permit
    from it, so a test decides when each frame arrives."""

    def __init__(self, frames: int = 1_000_000, *, live: bool = True, fail_open: bool = False,
                 fail_after: int | None = None, fps: float | None = 10.0, size: tuple[int, int] = (8, 6),
                 gate: threading.Semaphore | None = None, name: str = "scripted") -> None:
        self.frames, self.live, self.fail_open, self.fail_after = frames, live, fail_open, fail_after
        self.fps, self.size, self.gate = fps, size, gate
        self.spec = f"test:{name}"
        self.opened = self.closed = False
        self.reads = 0

    def open(self) -> None:
        if self.fail_open:
            raise CameraError(f"{self.spec}: no camera")
        self.opened = True

    def read(self) -> Frame | None:
        assert self.opened and not self.closed, "read of a source not open"
        if self.gate is not None and not self.gate.acquire(timeout=WAIT):
            raise CameraError("gate never opened")
        number = self.reads
        if self.fail_after is not None and number >= self.fail_after:
            raise CameraError(f"{self.spec}: unplugged")
        if number >= self.frames:
            return None
        self.reads += 1
        width, height = self.size
        return Frame(np.full((height, width, 3), number % 256, np.uint8), number, number / (self.fps or 10.0))

    def close(self) -> None:
        self.closed = True


class Script:
    """``make_source`` for a Capture: builds the given sources in order, then keeps building
    the last kind (``then``) for ever; remembers all it built."""

    def __init__(self, *sources: ScriptedSource, then: Callable[[], ScriptedSource] | None = None) -> None:
        self.queue = list(sources)
        self.then = then or (lambda: ScriptedSource(fail_open=True, name="absent"))
        self.built: list[ScriptedSource] = []

    def __call__(self) -> ScriptedSource:
        source = self.queue.pop(0) if self.queue else self.then()
        self.built.append(source)
        return source


class StatusLog:
    """``on_status`` that keeps every status, and waits for one that matches."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []
        self._cond = threading.Condition()

    def __call__(self, status: dict[str, Any]) -> None:
        with self._cond:
            self.seen.append(status)
            self._cond.notify_all()

    def states(self) -> list[str]:
        return [s["state"] for s in self.seen]

    def wait_for(self, check: Callable[[list[dict[str, Any]]], bool], timeout: float = WAIT) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: check(self.seen), timeout), f"never happened: {self.states()}"


def wait_until(check: Callable[[], bool], timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.005)


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The stand-in picamera2 as ``sys.modules["picamera2"]``, fresh for each test (and the
    backend's memory of a failed construction, of sensor modes and of cameras it could not
    close cleared: each test is a fresh process)."""
    from vision.camera import picam

    stand_in.reset()
    monkeypatch.setitem(sys.modules, "picamera2", stand_in)
    monkeypatch.setattr(picam, "_construct_failed", {"at": None, "error": ""})
    monkeypatch.setattr(picam, "_modes_of", {})
    monkeypatch.setattr(picam, "_unreleased", {})
    yield stand_in
    stand_in.reset()
