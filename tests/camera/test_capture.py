"""The capture thread, driven by scripted sources: no sleeps that a slow machine could break."""

from __future__ import annotations

import threading
import time
from dataclasses import FrozenInstanceError

import cv2
import numpy as np
import pytest

from vision.camera import Capture, Frame
from vision.camera.capture import Captured

from .conftest import WAIT, Script, ScriptedSource, StatusLog, wait_until


def drain(capture: Capture, limit: int = 1_000) -> list[Captured]:
    """Every frame wait_frame gives until the capture has nothing more."""
    got: list[Captured] = []
    while len(got) < limit:
        frame = capture.wait_frame(got[-1].seq if got else 0, WAIT)
        if frame is None:
            return got
        got.append(frame)
    return got


def test_a_lost_source_is_retried_and_frames_go_on_with_increasing_seq() -> None:
    script = Script(ScriptedSource(live=False, fail_after=3, name="a"),
                    ScriptedSource(live=False, fail_open=True, name="b"),
                    ScriptedSource(4, live=False, name="c"))
    log = StatusLog()
    capture = Capture(script, realtime=False, backoff=(0.01, 0.05), on_status=log)
    with capture:
        got = drain(capture)
        status = capture.status()
    assert [f.seq for f in got] == [1, 2, 3, 4, 5, 6, 7]  # nothing lost, nothing twice
    assert [f.number for f in got] == [0, 1, 2, 0, 1, 2, 3]  # the source's own numbers start again
    assert log.states() == ["running", "lost", "lost", "running", "ended", "stopped"]
    assert log.seen[1]["error"] == "test:a: unplugged" and log.seen[2]["error"] == "test:b: no camera"
    assert status["state"] == "ended" and status["retries"] == 2 and status["frames"] == 7
    assert status["source"] == "test:c" and status["error"] is None
    assert all(s.closed for s in script.built)


def test_a_live_camera_that_fails_comes_back_running() -> None:
    script = Script(ScriptedSource(fail_after=3, name="a"), then=lambda: ScriptedSource(name="b"))
    log = StatusLog()
    capture = Capture(script, backoff=(0.01, 0.05), on_status=log)
    with capture:
        log.wait_for(lambda seen: [s["state"] for s in seen] == ["running", "lost", "running"])
        seqs = []
        while len(seqs) < 5:
            frame = capture.wait_frame(seqs[-1] if seqs else 0, WAIT)
            assert frame is not None
            seqs.append(frame.seq)
        status = capture.status()
    assert seqs == sorted(set(seqs))
    assert status["state"] == "running" and status["retries"] == 1 and status["frames"] >= 5
    assert status["fps"] is None or status["fps"] > 0


def test_back_off_doubles_caps_and_starts_again_after_a_frame() -> None:
    gate = threading.Semaphore(0)
    script = Script(ScriptedSource(fail_open=True), ScriptedSource(fail_open=True),
                    ScriptedSource(fail_after=1, gate=gate),
                    then=lambda: ScriptedSource(fail_open=True))
    log = StatusLog()
    capture = Capture(script, backoff=(0.01, 0.04), on_status=log)
    gate.release(2)
    with capture:
        log.wait_for(lambda seen: sum(s["state"] == "lost" for s in seen) >= 7)
    waits = [s["retry_in"] for s in log.seen if s["state"] == "lost"]
    assert waits[:7] == [0.01, 0.02, 0.01, 0.02, 0.04, 0.04, 0.04]
    assert log.seen[-1]["state"] == "stopped"


def test_wait_frame_gives_the_newest_so_a_slow_consumer_skips() -> None:
    gate = threading.Semaphore(0)
    capture = Capture(Script(ScriptedSource(gate=gate)))
    with capture:
        assert capture.wait_frame(0, 0.01) is None  # nothing yet: times out
        gate.release(5)
        wait_until(lambda: capture.status()["frames"] == 5)
        newest = capture.wait_frame(0, WAIT)
        assert newest is not None and (newest.seq, newest.number) == (5, 4)
        assert capture.latest() is newest
        assert capture.wait_frame(5, 0.01) is None
        gate.release()
        assert capture.wait_frame(5, WAIT).seq == 6
        gate.release(10_000)  # let the blocked read go, so stop() need not wait for it


def test_a_file_ends_and_wait_frame_then_returns_none_at_once() -> None:
    capture = Capture(Script(ScriptedSource(3, live=False)), realtime=False)
    with capture:
        assert [f.number for f in drain(capture)] == [0, 1, 2]
        assert capture.status()["state"] == "ended"
        started = time.monotonic()
        assert capture.wait_frame(3, 60.0) is None
        assert time.monotonic() - started < 30.0
    assert capture.status()["state"] == "stopped"


def test_loop_plays_a_file_again_and_again() -> None:
    capture = Capture(Script(then=lambda: ScriptedSource(3, live=False)), realtime=False, loop=True)
    with capture:
        got = drain(capture, limit=7)
    assert [f.number for f in got] == [0, 1, 2, 0, 1, 2, 0]
    assert [f.seq for f in got] == list(range(1, 8))


def test_a_live_camera_that_gives_no_frame_is_lost() -> None:
    log = StatusLog()
    capture = Capture(Script(ScriptedSource(2)), backoff=(5.0, 5.0), on_status=log)
    with capture:
        log.wait_for(lambda seen: seen[-1]["state"] == "lost")
    assert [s["error"] for s in log.seen if s["state"] == "lost"] == ["test:scripted gave no frame"]


def test_stop_during_a_long_back_off_returns_at_once() -> None:
    log = StatusLog()
    capture = Capture(Script(), backoff=(60.0, 60.0), on_status=log)
    capture.start()
    log.wait_for(lambda seen: seen and seen[-1]["state"] == "lost")
    started = time.monotonic()
    capture.stop(timeout=30.0)
    assert time.monotonic() - started < 20.0  # far less than the 60 s back-off
    assert capture.status()["state"] == "stopped" and capture.status()["retries"] == 0


def test_stop_while_a_lossless_file_waits_for_its_consumer() -> None:
    source = ScriptedSource(100, live=False)
    capture = Capture(Script(source), realtime=False)
    capture.start()
    assert capture.wait_frame(0, WAIT).seq == 1
    wait_until(lambda: capture.status()["frames"] == 2)
    capture.stop(timeout=WAIT)
    assert source.closed and source.reads == 2  # it read one ahead, no more


def test_an_on_status_that_raises_does_not_stop_the_capture() -> None:
    def broken(status: dict) -> None:
        raise RuntimeError("page gone")

    capture = Capture(Script(ScriptedSource(3, live=False)), realtime=False, on_status=broken)
    with capture:
        assert len(drain(capture)) == 3


def test_a_source_that_raises_anything_is_lost_with_the_error_named() -> None:
    class Broken(ScriptedSource):
        def read(self) -> Frame | None:
            raise OSError("bus error")

    log = StatusLog()
    capture = Capture(Script(Broken()), backoff=(5.0, 5.0), on_status=log)
    with capture:
        log.wait_for(lambda seen: seen[-1]["state"] == "lost")
    assert [s["error"] for s in log.seen if s["state"] == "lost"] == ["OSError: bus error"]


def test_snapshot_is_a_jpeg_no_wider_than_asked() -> None:
    gate = threading.Semaphore(0)
    capture = Capture(Script(ScriptedSource(size=(1280, 720), gate=gate)))
    with capture:
        assert capture.snapshot_jpeg() is None
        gate.release()
        assert capture.wait_frame(0, WAIT) is not None
        small = cv2.imdecode(np.frombuffer(capture.snapshot_jpeg(), np.uint8), cv2.IMREAD_COLOR)
        full = cv2.imdecode(np.frombuffer(capture.snapshot_jpeg(max_width=2000), np.uint8), cv2.IMREAD_COLOR)
        gate.release(10_000)
    assert small.shape == (360, 640, 3)
    assert full.shape == (720, 1280, 3)


def test_start_twice_and_bad_back_off_are_refused() -> None:
    with pytest.raises(ValueError, match="back-off"):
        Capture(Script(), backoff=(2.0, 1.0))
    capture = Capture(Script(ScriptedSource(1, live=False)), realtime=False)
    with capture, pytest.raises(RuntimeError, match="already started"):
        capture.start()


def test_realtime_paces_a_file_at_its_own_rate() -> None:
    capture = Capture(Script(ScriptedSource(6, live=False, fps=10.0)), realtime=True)
    started = time.monotonic()
    with capture:
        wait_until(lambda: capture.status()["state"] == "ended")
    # frame 5 is 0.5 s after frame 0: pacing can only make it later, never sooner
    assert time.monotonic() - started >= 0.45
    assert capture.status()["frames"] == 6


def test_a_captured_frame_is_the_source_frame_with_a_seq() -> None:
    frame = Frame(np.zeros((2, 2, 3), np.uint8), 4, 0.4, metadata={"k": 1})
    captured = Captured.of(frame, 9)
    assert (captured.number, captured.time, captured.metadata, captured.seq) == (4, 0.4, {"k": 1}, 9)
    assert captured.image is frame.image
    with pytest.raises(FrozenInstanceError):
        captured.seq = 3  # type: ignore[misc]
