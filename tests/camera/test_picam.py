"""The picamera2 backend, against the stand-in module (tests/camera/fake_picamera2.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from vision.camera import CameraError, Capture, open_source
from vision.camera.picam import BUFFER_COUNT, DEFAULT_LENS

from .conftest import StatusLog

ROOT = Path(__file__).resolve().parents[2]


def read(spec: str, frames: int) -> list:
    source = open_source(spec)
    source.open()
    try:
        return [source.read() for _ in range(frames)]
    finally:
        source.close()


def locks_by(camera, key: str) -> list[tuple[int, dict]]:
    return [(before, c) for before, c in camera.controls_set if key in c]


def locks(camera) -> list[tuple[int, dict]]:
    return locks_by(camera, "AeEnable")


def test_each_frame_is_one_request_released_with_main_lores_and_metadata_from_it(fake_picamera2) -> None:
    frames = read("picamera2:640x480", 8)
    camera = fake_picamera2.CAMERAS[0]
    assert len(camera.requests) == 8
    assert all(r.released for r in camera.requests)
    assert all(sorted(r.taken) == ["lores", "main", "metadata"] for r in camera.requests)
    for n, frame in enumerate(frames):
        assert frame.number == n
        assert frame.image.shape == (480, 640, 3) and frame.image.dtype == np.uint8
        assert (frame.image == n).all()
        assert frame.lores.shape == (240, 320)  # the Y plane only: no U/V rows, no stride padding
        assert (frame.lores == n).all()
        assert frame.metadata["SensorTimestamp"] == fake_picamera2.settling(n)["SensorTimestamp"]
    assert [f.time for f in frames] == sorted(f.time for f in frames)
    assert all(wait is not None and wait > 0 for wait in camera.waits)  # a hung camera times out
    assert camera.closed


def test_the_configuration_asks_for_bgr_a_grey_lores_few_buffers_and_the_rate(fake_picamera2) -> None:
    read("picamera2:1280x720,fps=15", 1)
    config = fake_picamera2.CAMERAS[0].config
    assert config["buffer_count"] <= 4 and config["buffer_count"] == BUFFER_COUNT
    assert config["main"]["format"] == "RGB888" and config["main"]["size"] == (1280, 720)
    assert config["lores"]["format"] == "YUV420" and config["lores"]["size"] == (320, 180)
    assert config["controls"] == {"FrameRate": 15.0}


def test_exposure_and_white_balance_lock_once_after_a_second_of_steady_metadata(fake_picamera2) -> None:
    frames = read("picamera2", 40)  # 10 fps: a second is 10 frames; the fake settles at frame 5
    camera = fake_picamera2.CAMERAS[0]
    [(before, controls)] = locks(camera)
    assert 5 + 10 <= before < 40
    settled = fake_picamera2.settling(5)
    assert controls == {"AeEnable": False, "AwbEnable": False, "ExposureTime": settled["ExposureTime"],
                        "AnalogueGain": settled["AnalogueGain"], "ColourGains": settled["ColourGains"]}
    assert len(frames) == 40


def test_the_lock_comes_at_once_when_the_camera_says_ae_locked(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.metadata = lambda n: {**fake_picamera2.settling(n), "AeLocked": n >= 2}
    read("picamera2", 20)
    [(before, controls)] = locks(fake_picamera2.CAMERAS[0])
    assert before == 3 and controls["ExposureTime"] == fake_picamera2.settling(2)["ExposureTime"]


def test_a_camera_that_never_settles_is_locked_after_five_seconds_of_frames(fake_picamera2) -> None:
    def hunting(n: int) -> dict:
        return {**fake_picamera2.settling(n), "ExposureTime": 10_000 + 5_000 * (n % 2)}

    fake_picamera2.BEHAVIOUR.metadata = hunting
    read("picamera2", 70)
    [(before, _)] = locks(fake_picamera2.CAMERAS[0])
    assert before == 50


def test_the_lock_sets_only_controls_the_camera_advertises(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.not_advertised = ("AeEnable",)  # newer libcamera: exposure modes instead
    read("picamera2", 20)
    [(_, controls)] = locks_by(fake_picamera2.CAMERAS[0], "ExposureTime")
    assert "AeEnable" not in controls and controls["AwbEnable"] is False and controls["AnalogueGain"] == 2.25


def test_lock_off_leaves_exposure_alone(fake_picamera2) -> None:
    read("picamera2:640x480,lock=off", 30)
    assert locks_by(fake_picamera2.CAMERAS[0], "ExposureTime") == []


@pytest.mark.parametrize(("spec", "lens"), [("picamera2", DEFAULT_LENS), ("picamera2:640x480,lens=2.5", 2.5)])
def test_a_camera_with_autofocus_is_put_in_manual_focus(fake_picamera2, spec: str, lens: float) -> None:
    read(spec, 2)
    focus = [c for _, c in fake_picamera2.CAMERAS[0].controls_set if "AfMode" in c or "LensPosition" in c]
    assert focus == [{"AfMode": 0, "LensPosition": lens}]
    assert round(1 / DEFAULT_LENS, 2) == 0.7


def test_a_camera_without_autofocus_gets_no_focus_controls(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.autofocus = False
    read("picamera2:640x480,lens=2.5", 20)
    controls = [c for _, c in fake_picamera2.CAMERAS[0].controls_set]
    assert all("AfMode" not in c and "LensPosition" not in c for c in controls)
    assert len(locks(fake_picamera2.CAMERAS[0])) == 1


def test_a_lens_position_the_camera_cannot_take_is_refused_and_the_camera_closed(fake_picamera2) -> None:
    source = open_source("picamera2:640x480,lens=20")
    with pytest.raises(CameraError, match=r"lens=20 is outside this camera's 0\.\.15"):
        source.open()
    assert fake_picamera2.CAMERAS[0].closed


def test_a_failure_mid_stream_is_a_camera_error(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.fail_at = 3
    source = open_source("picamera2:640x480")
    source.open()
    assert [source.read().number for _ in range(3)] == [0, 1, 2]
    with pytest.raises(CameraError, match="stopped giving frames: Camera frontend has timed out!"):
        source.read()
    source.close()
    source.close()  # twice is fine
    assert fake_picamera2.CAMERAS[0].closed


def test_no_camera_is_a_camera_error_naming_the_check(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.present = False
    with pytest.raises(CameraError, match=r"no Pi camera found.*rpicam-hello --list-cameras"):
        open_source("picamera2").open()


def test_picamera2_not_installed_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 raises ImportError
    with pytest.raises(CameraError, match=r"apt install -y python3-picamera2.*--system-site-packages"):
        open_source("picamera2").open()


def test_read_before_open_is_a_camera_error(fake_picamera2: ModuleType) -> None:
    with pytest.raises(CameraError, match="read before open"):
        open_source("picamera2").read()


def test_nothing_imports_picamera2_until_a_camera_is_opened() -> None:
    code = ("import sys, vision.camera, vision.camera.picam\n"
            "from vision.camera import open_source\n"
            "open_source('picamera2:640x480,lens=1'); open_source('opencv:0')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('picamera2', 'libcamera')))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_capture_reconnects_to_a_new_camera_after_one_fails(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.fail_at = 3  # every camera fails after 3 frames
    log = StatusLog()
    capture = Capture(lambda: open_source("picamera2:640x480"), backoff=(0.01, 0.01), on_status=log)
    with capture:
        log.wait_for(lambda seen: [s["state"] for s in seen].count("running") >= 2)
        log.wait_for(lambda seen: [s["state"] for s in seen].count("lost") >= 2)
    first, second = fake_picamera2.CAMERAS[:2]
    assert first.closed and second.closed
    assert all(r.released for cam in fake_picamera2.CAMERAS for r in cam.requests)
    assert log.states()[:4] == ["running", "lost", "running", "lost"]
    assert "Camera frontend has timed out!" in log.seen[1]["error"]
    assert capture.status()["frames"] >= 6
