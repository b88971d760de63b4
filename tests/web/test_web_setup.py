"""The Camera tab's Set-up step, server side: ``GET /api/camera/checks`` on a real companion whose
camera service plays a ``frames:`` folder of synthetic set-up frames
(:mod:`vision.synth.setup_frames`): a good table passes every check, a dark one fails ``light``;
the checks run at most once a second, never in the tracker's thread, on a small ring of the
tracker's frames, and reading them changes nothing. The browser side is in
``test_web_setup_browser.py``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from webhelpers import Api

from companion.camera import CHECK_FRAMES, CameraService
from companion.service import Companion
from cribbage.gamelog import GameStore
from vision.camera import CameraError
from web import create_app

NAMES = ["light", "focus", "distance", "glare", "flicker", "contrast", "tilt"]


def wait_for(what: Callable[[], Any], timeout: float = 30.0) -> None:
    """Poll the condition ``what`` until it holds (a failure after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the camera")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def good() -> np.ndarray:
    """A good two-player table (cards 100-150 px on dark wood), seed and deck kept apart from
    the checks' tuning frames."""
    from vision.synth.setup_frames import good_frame

    return good_frame(2, "procedural-5", "wood_dark")[0]


def write_frames(folder: Path, frames: list[np.ndarray]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for k, frame in enumerate(frames):
        assert cv2.imwrite(str(folder / f"f{k:03d}.png"), frame)
    return folder


class Served:
    """A companion with a camera on ``spec`` and the page's app, both closed by the fixture."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
        self.camera: CameraService | None = None
        self.api = Api(create_app(self.companion, {"DATA_DIR": tmp_path, "TESTING": True}).test_client())

    def start(self, spec: str, **options: Any) -> CameraService:
        options.setdefault("realtime", False)
        self.camera = CameraService(self.companion, spec, self.tmp_path, **options)
        self.companion.attach_camera(self.camera)
        self.camera.start()
        return self.camera

    def close(self) -> None:
        self.companion.close()  # closes the camera too


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = Served(tmp_path)
    yield s
    s.close()


def played_all(camera: CameraService, frames: int) -> Callable[[], bool]:
    return lambda: camera.capture.status()["state"] == "ended" and camera.followed >= frames


def test_a_good_table_passes_every_check(served: Served, good: np.ndarray, tmp_path: Path) -> None:
    folder = write_frames(tmp_path / "good", [good] * 5)
    camera = served.start(f"frames:{folder}")
    wait_for(played_all(camera, 5))
    response = served.api.get("/api/camera/checks")
    assert response.status_code == 200, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    report = response.get_json()
    assert [c["name"] for c in report["checks"]] == NAMES
    assert report["ok"] is True, report["checks"]
    assert all(c["ok"] and c["say"] for c in report["checks"])
    assert report["frames"] == 5 and report["cards"] >= 3 and report["read"] >= 1
    assert report["camera"] == "ended" and report["frame"] == 5
    assert (report["width"], report["height"]) == (1280, 720)


def test_the_ring_keeps_small_copies_of_large_frames(served: Served, good: np.ndarray,
                                                     tmp_path: Path) -> None:
    from vision.camera.check import CHECK_SIDE

    large = cv2.resize(good, None, fx=2.5, fy=2.5, interpolation=cv2.INTER_CUBIC)  # 3200x1800
    folder = write_frames(tmp_path / "large", [large] * 3)
    camera = served.start(f"frames:{folder}")
    wait_for(played_all(camera, 3))
    kept = list(camera._recent)
    assert len(kept) == 3
    latest = camera.capture.wait_frame(-1, timeout=1.0)
    assert latest is not None and latest.image.shape[:2] == (1800, 3200)
    newest = kept[-1]
    assert newest.image.shape[:2] == (900, CHECK_SIDE) and newest.size == (3200, 1800)
    assert not np.shares_memory(newest.image, latest.image)  # a copy, not a view of the frame
    for k in kept:
        assert k.light.shape == (90, 160) and k.light.nbytes <= 60_000 and k.size == (3200, 1800)
    assert all(k.image is None for k in kept[:-1])  # the older frames: their light print only
    report = served.api.get("/api/camera/checks").get_json()
    assert report["ok"] is True, report["checks"]
    assert (report["width"], report["height"]) == (3200, 1800)  # said in the frame's own pixels
    distance = report["checks"][2]
    assert distance["name"] == "distance" and distance["value"] == report["card_width"] > 200


def test_a_dark_table_fails_light(served: Served, good: np.ndarray, tmp_path: Path) -> None:
    from vision.synth.setup_frames import too_dark

    folder = write_frames(tmp_path / "dark", [too_dark(good, 0.12, seed=k) for k in range(4)])
    camera = served.start(f"frames:{folder}")
    wait_for(played_all(camera, 4))
    report = served.api.get("/api/camera/checks").get_json()
    light = report["checks"][0]
    assert light["name"] == "light" and light["ok"] is False, light
    assert light["say"].startswith("Too dark: turn on a lamp over the table")
    assert report["ok"] is False


def test_a_flickering_lamp_fails_flicker_from_the_rings_light_prints(
        served: Served, good: np.ndarray, tmp_path: Path) -> None:
    """The ring keeps the older frames' light prints only; flicker is still judged across them."""
    from vision.synth.setup_frames import flickering

    folder = write_frames(tmp_path / "mains", flickering(good, CHECK_FRAMES, bands=3.0))
    camera = served.start(f"frames:{folder}")
    wait_for(played_all(camera, CHECK_FRAMES))
    report = served.api.get("/api/camera/checks").get_json()
    flicker = report["checks"][4]
    assert report["frames"] == CHECK_FRAMES and flicker["name"] == "flicker"
    assert flicker["ok"] is False and "picamera2:mains=50" in flicker["say"], flicker


def test_the_checks_run_at_most_once_a_second_off_the_tracker_and_change_nothing(
    served: Served, good: np.ndarray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.camera.check as check

    threads: list[str] = []
    real = check.check_frames

    def check_frames(frames: Any, *rest: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(frames, *rest)

    monkeypatch.setattr(check, "check_frames", check_frames)
    game = served.api.new_game()  # at the cut: the tracker waits for the dealer; only a read could change it
    folder = write_frames(tmp_path / "loop", [good] * 3)
    camera = served.start(f"frames:{folder}", realtime=True, loop=True)  # 10 frames/s, on and on
    wait_for(lambda: camera.followed >= CHECK_FRAMES + 2)
    before = (served.api.get("/api/camera").get_json(),
              served.api.get(f"/api/games/{game}/events").get_json())
    first = served.api.get("/api/camera/checks").get_json()
    seen = camera.followed
    wait_for(lambda: camera.followed >= seen + 3)  # newer frames, within the second
    camera.checks_every = 3600.0  # "a second" that does not end during the test
    again = served.api.get("/api/camera/checks").get_json()
    assert again == first and camera.checks_run == 1  # the same report: not checked again
    assert first["frames"] == CHECK_FRAMES  # the ring: the last few frames, never more
    assert len(camera._recent) == CHECK_FRAMES
    camera.checks_every = 0.0  # the second is over: the next asks checks the newer frames
    later = served.api.get("/api/camera/checks").get_json()
    assert later["frame"] > first["frame"] and camera.checks_run == 2
    assert threads and "tracker" not in threads and threading.current_thread().name in threads
    after_status = served.api.get("/api/camera").get_json()
    after_events = served.api.get(f"/api/games/{game}/events").get_json()
    assert after_events == before[1]  # the game is untouched
    for key in ("zones", "game", "tracker", "flagged", "source"):
        assert after_status[key] == before[0][key], key


def test_no_camera_is_404(served: Served) -> None:
    response = served.api.get("/api/camera/checks")
    assert response.status_code == 404
    assert response.get_json()["error"] == "no camera: start crib serve --camera SPEC"


def test_no_frame_yet_and_a_lost_camera_are_409(served: Served) -> None:
    class Unplugged:
        spec, live, fps = "opencv:9", True, 10.0

        def open(self) -> None:
            raise CameraError("no camera at opencv:9")

    camera = CameraService(served.companion, "opencv:9", served.tmp_path, make_source=Unplugged,
                           backoff=(30.0, 30.0))
    served.camera = camera
    served.companion.attach_camera(camera)
    response = served.api.get("/api/camera/checks")  # not started: no frame yet
    assert response.status_code == 409
    assert response.get_json()["error"] == "no picture from the camera yet: nothing to check"
    camera.start()
    wait_for(lambda: camera.status()["state"] == "lost")
    response = served.api.get("/api/camera/checks")
    assert response.status_code == 409
    assert response.get_json()["error"].startswith("the camera is lost (no camera at opencv:9)")
    assert camera.checks_run == 0


def test_a_camera_that_failed_for_good_says_so_and_is_not_retried(served: Served) -> None:
    lasting = ("picamera2 will not import (No module named 'libcamera'): install it with "
               "sudo apt install python3-picamera2")
    opened: list[int] = []

    class Broken:
        spec, live, fps = "picamera2", True, 10.0

        def open(self) -> None:
            opened.append(1)
            raise CameraError(lasting, lasting=True)

    camera = CameraService(served.companion, "picamera2", served.tmp_path, make_source=Broken,
                           backoff=(0.01, 0.01))
    served.camera = camera
    served.companion.attach_camera(camera)
    camera.start()
    wait_for(lambda: camera.status()["state"] == "failed")
    status = served.api.get("/api/camera").get_json()
    assert status["state"] == "failed" and status["error"] == lasting
    assert status["tracker"] == "paused"
    response = served.api.get("/api/camera/checks")
    assert response.status_code == 409
    assert response.get_json()["error"] == f"the camera is off ({lasting}): nothing to check"
    assert len(opened) == 1 and camera.status()["state"] == "failed"
