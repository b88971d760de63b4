"""The picamera2 backend, against the stand-in module (tests/camera/fake_picamera2.py)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, Capture, open_source, picam
from vision.camera.picam import BUFFER_COUNT, DEFAULT_LENS, IN_USE, LOST, NO_CAMERA

from .conftest import WAIT, StatusLog

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
    return locks_by(camera, "ExposureTime")


def test_each_frame_is_one_request_released_with_main_lores_and_metadata_from_it(fake_picamera2) -> None:
    frames = read("picamera2:640x480", 8)
    camera = fake_picamera2.CAMERAS[0]
    assert len(camera.requests) == 8
    assert all(r.released for r in camera.requests)
    assert all(sorted(r.taken) == ["lores", "main", "metadata"] for r in camera.requests)
    for n, frame in enumerate(frames):
        assert frame.number == n
        assert frame.image.shape == (480, 640, 3) and frame.image.dtype == np.uint8
        assert (frame.image[120:] == n).all()  # the scene's grey, below its red patch
        assert frame.lores.shape == (240, 320)  # the Y plane only: no U/V rows, no stride padding
        assert (frame.lores == n).all()
        assert frame.metadata["SensorTimestamp"] == fake_picamera2.settling(n)["SensorTimestamp"]
    assert [f.time for f in frames] == sorted(f.time for f in frames)
    assert all(wait is not None and wait > 0 for wait in camera.waits)  # a hung camera times out
    assert camera.calls[-3:] == ["cancel_all_and_flush", "stop", "close"] and camera.closed


@pytest.mark.parametrize("platform", ["pi4", "pi5"])
def test_the_picture_is_bgr_a_red_card_is_red_to_opencv(fake_picamera2, platform: str) -> None:
    fake_picamera2.BEHAVIOUR.platform = platform
    [frame] = read("picamera2:640x480", 1)
    patch = frame.image[10:100, 10:140]
    assert (patch == (30, 40, 200)).all()  # B, G, R: OpenCV's order
    hue, saturation, _ = cv2.cvtColor(patch[:1, :1], cv2.COLOR_BGR2HSV)[0, 0]
    assert (hue <= 5 or hue >= 175) and saturation > 100  # red


def test_the_stand_in_gives_each_format_in_its_own_byte_order(fake_picamera2) -> None:
    """A backend that asked for BGR888 (R, G, B bytes) would see the red patch blue."""
    camera = fake_picamera2.Picamera2()
    for fmt, red in [("RGB888", (30, 40, 200)), ("BGR888", (200, 40, 30)), ("XBGR8888", (200, 40, 30, 255)),
                     ("XRGB8888", (30, 40, 200, 255))]:
        camera.configure(camera.create_video_configuration(main={"size": (640, 480), "format": fmt}))
        camera.start()
        request = camera.capture_request(wait=1)
        assert tuple(request.make_array("main")[0, 0]) == red, fmt
        request.release()
        camera.stop()
    camera.close()


def test_the_configuration_asks_for_bgr_a_grey_lores_few_buffers_and_the_rate(fake_picamera2) -> None:
    read("picamera2:1280x720,fps=15", 1)
    config = fake_picamera2.CAMERAS[0].config
    assert config["buffer_count"] <= 4 and config["buffer_count"] == BUFFER_COUNT
    assert config["main"]["format"] == "RGB888" and config["main"]["size"] == (1280, 720)
    assert config["lores"]["format"] == "YUV420" and config["lores"]["size"] == (320, 180)
    # picamera2 adds FrameDurationLimits (30 fps) to a video configuration; FrameRate comes after
    # it, so it is what the camera gets.
    assert config["controls"]["FrameRate"] == 15.0 and list(config["controls"])[-1] == "FrameRate"
    assert config["raw"] is None  # the backend never reads a raw stream: no buffers for one


# --- 1. a camera lost mid-game ------------------------------------------------------------


def test_a_camera_lost_mid_stream_is_a_camera_error_in_players_words_and_close_returns(
        fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.fail_at = 3
    source = open_source("picamera2:640x480")
    source.open()
    assert [source.read().number for _ in range(3)] == [0, 1, 2]
    with pytest.raises(CameraError, match=r"^the camera stopped sending pictures \(none for 3 s\): check"):
        source.read()
    camera = fake_picamera2.CAMERAS[0]
    assert camera.jobs == ["capture_request"]  # picamera2 leaves the timed-out job queued
    closing = threading.Thread(target=source.close, daemon=True)
    closing.start()
    closing.join(WAIT)
    assert not closing.is_alive(), "close() hung behind the timed-out job"
    assert camera.cancelled == 1 and camera.jobs == []
    assert camera.calls[-3:] == ["cancel_all_and_flush", "stop", "close"]
    assert camera.closed and not camera.started
    source.close()  # twice is fine


def reconnecting(fake_picamera2, running: int, lost: int = 0) -> tuple[Capture, StatusLog]:
    """The capture thread on cameras that each go quiet after 3 frames, run until ``running``
    cameras ran and ``lost`` were lost (then stopped); it and its statuses."""
    fake_picamera2.BEHAVIOUR.fail_at = 3
    log = StatusLog()
    capture = Capture(lambda: open_source("picamera2:640x480"), backoff=(0.01, 0.01), on_status=log)
    with capture:
        log.wait_for(lambda seen: [s["state"] for s in seen].count("running") >= running)
        log.wait_for(lambda seen: [s["state"] for s in seen].count("lost") >= lost)
    return capture, log


def test_the_capture_thread_closes_a_lost_camera_and_opens_a_new_one(fake_picamera2) -> None:
    capture, log = reconnecting(fake_picamera2, running=2, lost=2)
    first, second = fake_picamera2.CAMERAS[:2]
    assert first.closed and second.closed and first.cancelled >= 1  # stop() would have waited for ever
    assert all(r.released for cam in fake_picamera2.CAMERAS for r in cam.requests)
    assert log.states()[:4] == ["running", "lost", "running", "lost"]
    assert log.seen[1]["error"] == LOST
    assert capture.status()["frames"] >= 6


def test_the_stand_in_stop_waits_behind_a_timed_out_job_until_it_is_cancelled(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.fail_at = 0
    camera = fake_picamera2.Picamera2()
    camera.configure(camera.create_video_configuration())
    camera.start()
    with pytest.raises(fake_picamera2.TimeoutError) as raised:
        camera.capture_request(wait=3)
    assert str(raised.value) == "" and isinstance(raised.value, TimeoutError)
    stopping = threading.Thread(target=camera.stop, daemon=True)
    stopping.start()
    stopping.join(0.2)
    assert stopping.is_alive() and camera.started  # stuck, as the real one
    camera.cancel_all_and_flush()
    stopping.join(WAIT)
    assert not stopping.is_alive() and not camera.started


def test_the_stand_in_says_so_rather_than_hang_when_stop_is_never_unblocked(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.fail_at = 0
    fake_picamera2.BEHAVIOUR.stop_hang_limit = 0.05
    camera = fake_picamera2.Picamera2()
    camera.configure(camera.create_video_configuration())
    camera.start()
    with pytest.raises(TimeoutError):
        camera.capture_request(wait=3)
    with pytest.raises(RuntimeError, match="call cancel_all_and_flush"):
        camera.close()


# --- 2. the whole sensor, not a crop --------------------------------------------------------


FULL_FIELD_CASES = [
    ("imx219", "picamera2", (1640, 1232), 10),  # Camera Module v2: not the cropped 1920x1080 mode
    ("ov5647", "picamera2", (1296, 972), 10),  # Camera Module v1: likewise
    ("imx708", "picamera2", (2304, 1296), 10),  # Camera Module 3: not the cropped 1536x864 mode
    ("imx477", "picamera2", (2028, 1520), 12),  # HQ: not the cropped 10-bit 1332x990 nor 2028x1080
    ("imx296", "picamera2", (1456, 1088), 10),  # Global Shutter: its one mode
    ("imx219", "picamera2:640x480", (1640, 1232), 10),  # not the cropped 640x480 mode either
    ("imx219", "picamera2:1920x1080", (3280, 2464), 10),
    ("ov5647", "picamera2:1920x1080", (2592, 1944), 10),
    ("imx708", "picamera2:1920x1080,fps=30", (2304, 1296), 10),
    ("imx477", "picamera2:1280x960,fps=30", (2028, 1520), 12),
    ("imx219", "picamera2:1280x720,fps=60", (1640, 1232), 10),  # none that fast: the fastest full one
]


@pytest.mark.parametrize("platform", ["pi4", "pi5"])
@pytest.mark.parametrize(("sensor", "spec", "mode", "bits"), FULL_FIELD_CASES)
def test_the_camera_is_asked_for_the_smallest_full_field_sensor_mode(
        fake_picamera2, platform: str, sensor: str, spec: str, mode: tuple[int, int], bits: int) -> None:
    fake_picamera2.BEHAVIOUR.sensor, fake_picamera2.BEHAVIOUR.platform = sensor, platform
    read(spec, 1)
    camera = fake_picamera2.CAMERAS[0]
    width, height = fake_picamera2.SENSORS[sensor].pixel_array
    assert camera.mode["size"] == mode and camera.mode["crop_limits"] == (0, 0, width, height)
    assert camera.config["sensor"] == {"output_size": mode, "bit_depth": bits}  # the deeper of 8 and 10
    assert camera.calls.index("sensor_modes") < len(camera.calls) - camera.calls[::-1].index("configure") - 1


def test_the_sensor_modes_are_read_once_a_process_not_on_every_reconnect(fake_picamera2) -> None:
    reconnecting(fake_picamera2, running=3)
    assert fake_picamera2.SCANS == 1 and len(fake_picamera2.CAMERAS) >= 3
    assert all(c.mode["size"] == (2304, 1296) for c in fake_picamera2.CAMERAS if c.config)
    scan_peak = fake_picamera2.CAMERAS[0].peak
    assert all(c.peak < scan_peak for c in fake_picamera2.CAMERAS[1:])  # no scan's peak again


@pytest.mark.parametrize(("sensor", "spec", "mode"), [
    ("imx219", "picamera2:1280x720", (1640, 1232)),
    ("ov5647", "picamera2:1280x720", (1296, 972)),
    ("imx477", "picamera2:1280x960", (2028, 1520)),
])
def test_a_mode_scan_short_of_memory_still_gives_the_whole_sensor(
        fake_picamera2, caplog: pytest.LogCaptureFixture, sensor: str, spec: str, mode) -> None:
    """A Pi Zero 2 W: the scan (4 buffers of each mode's raw size) cannot get the memory; the
    kept configuration (no raw stream) can."""
    fake_picamera2.BEHAVIOUR.sensor = sensor
    fake_picamera2.BEHAVIOUR.cma = 16_000_000
    with caplog.at_level("WARNING"):
        [frame] = read(spec, 1)
    camera = fake_picamera2.CAMERAS[0]
    assert camera.peak > fake_picamera2.BEHAVIOUR.cma  # the scan asked for more than there is
    width, height = fake_picamera2.SENSORS[sensor].pixel_array
    assert camera.mode["size"] == mode and camera.mode["crop_limits"] == (0, 0, width, height)
    assert camera.config["buffer_count"] == BUFFER_COUNT
    assert frame.size == tuple(int(v) for v in spec.split(":")[1].split("x"))
    assert "could not read the sensor modes" in caplog.text and "known to have" in caplog.text


def test_a_configuration_short_of_memory_takes_fewer_buffers_never_a_cropped_mode(
        fake_picamera2, caplog: pytest.LogCaptureFixture) -> None:
    fake_picamera2.BEHAVIOUR.sensor = "imx219"
    fake_picamera2.BEHAVIOUR.cma = 8_000_000  # 4 buffers of 1280x720 BGR do not fit; 2 do
    with caplog.at_level("WARNING"):
        frames = read("picamera2:1280x720", 3)
    camera = fake_picamera2.CAMERAS[0]
    assert camera.config["buffer_count"] == 2 and camera.mode["size"] == (1640, 1232)
    assert camera.allocated <= fake_picamera2.BEHAVIOUR.cma and len(frames) == 3
    assert "could not get memory for 4 pictures" in caplog.text


def test_too_little_camera_memory_for_any_configuration_says_so(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.cma = 1_000_000
    with pytest.raises(CameraError, match=r"^the camera could not get memory for its pictures .*smaller"):
        read("picamera2:1280x720", 1)
    assert fake_picamera2.CAMERAS[0].closed


def test_without_a_sensor_choice_picamera2_would_crop_a_camera_module_v2(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.sensor = "imx219"
    camera = fake_picamera2.Picamera2()
    camera.configure(camera.create_video_configuration(main={"size": (1280, 720), "format": "RGB888"}))
    assert camera.mode["size"] == (1920, 1080) and camera.mode["crop_limits"] == (680, 692, 1920, 1080)


def test_a_main_stream_larger_than_every_full_field_mode_leaves_the_choice_to_picamera2(
        fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.sensor = "ov5647"
    source = open_source("picamera2:2600x1950")
    source.open()
    try:
        assert source.read().size == (2600, 1950)
    finally:
        source.close()
    config = fake_picamera2.CAMERAS[0].config
    assert source.sensor_mode is None and config["main"]["size"] == (2600, 1950)
    assert config["sensor"]["output_size"] == (2592, 1944)  # picamera2's pick, from the main size


# --- 3. sizes the Pi can do -----------------------------------------------------------------


@pytest.mark.parametrize(("spec", "main", "lores"), [
    ("picamera2:320x240", (320, 240), (320, 240)),
    ("picamera2:321x241", (320, 240), (320, 240)),  # made even, as picamera2 does
    ("picamera2:641x361", (640, 360), (320, 180)),
    ("picamera2:4000x64", (4000, 64), (320, 6)),
    ("picamera2:4608x2592", (4608, 2592), (320, 180)),
])
def test_every_size_the_spec_takes_is_one_picamera2_configures(
        fake_picamera2, spec: str, main, lores) -> None:
    [frame] = read(spec, 1)
    config = fake_picamera2.CAMERAS[0].config
    assert config["main"]["size"] == main and config["lores"]["size"] == lores
    assert frame.size == main and frame.lores.shape == (lores[1], lores[0])


@pytest.mark.parametrize("spec", ["picamera2:160x120", "picamera2:318x240", "picamera2:640x63"])
def test_a_size_the_pi_cannot_do_is_refused_when_the_spec_is_read(spec: str) -> None:
    with pytest.raises(CameraError, match=r"^picamera2: size \d+x\d+ is too small: .* least 320x64") as err:
        open_source(spec)
    assert "\n" not in str(err.value)


def test_the_stand_in_refuses_what_picamera2_refuses(fake_picamera2) -> None:
    camera = fake_picamera2.Picamera2()
    make = camera.create_video_configuration
    with pytest.raises(ValueError, match="Bad key 'zoom'"):
        make(main={"size": (640, 480), "zoom": 2})
    assert make(main={"size": (641, 481)})["main"]["size"] == (640, 480)
    refused = {
        "lores stream dimensions may not exceed main stream": make(main={"size": (160, 120)},
                                                                    lores={"size": (320, 240)}),
        "Unexpected keys": make(sensor={"output_size": (1640, 1232), "mode": 1}),
        "not advertised": make(controls={"Sharpness": 2}),
        "lores stream must be YUV": make(lores={"size": (320, 180), "format": "RGB888"}),
    }
    odd = make()
    odd["main"]["size"] = (641, 480)
    refused["should be even"] = odd
    for message, config in refused.items():
        with pytest.raises(RuntimeError, match=message):
            camera.configure(config)
    camera.configure(make())
    camera.start()
    with pytest.raises(RuntimeError, match="must be stopped"):
        camera.configure(make())


# --- 4. no camera, a busy camera, auto exposure ---------------------------------------------


def test_no_camera_is_found_without_constructing_one(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.present = False
    before = fake_picamera2.open_fds()
    for _ in range(5):
        with pytest.raises(CameraError, match=r"^no Pi camera found: power the Pi off, reseat .*rpicam"):
            open_source("picamera2").open()
    assert fake_picamera2.ATTEMPTS == 0 and fake_picamera2.open_fds() == before


def test_the_stand_in_lists_cameras_once_a_process_as_picamera2s_camera_manager(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.present = False
    assert fake_picamera2.Picamera2.global_camera_info() == []
    fake_picamera2.BEHAVIOUR.present = True  # plugged in while running: not seen until a restart
    assert fake_picamera2.Picamera2.global_camera_info() == []


def test_the_stand_in_leaks_a_pipe_like_picamera2_when_acquiring_fails(fake_picamera2) -> None:
    held = fake_picamera2.Picamera2()
    before = fake_picamera2.open_fds()
    with pytest.raises(RuntimeError, match="__init__ sequence did not complete") as raised:
        fake_picamera2.Picamera2()
    assert "Failed to acquire camera" in str(raised.value.__cause__)
    half = raised.value.__traceback__.tb_frame.f_locals.get("self") or \
        raised.value.__traceback__.tb_next.tb_frame.f_locals["self"]
    half.close()  # returns at once: it never opened
    assert fake_picamera2.open_fds() == before + 2 and not half.is_open
    held.close()  # a camera that opened closes its pipe: the half-built one's two stay open
    fake_picamera2.Picamera2().close()
    assert fake_picamera2.open_fds() == before - 2 + 2


def test_a_camera_another_program_holds_is_reported_as_in_use_and_costs_no_descriptor(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.busy = True
    with pytest.raises(CameraError) as raised:
        open_source("picamera2").open()
    assert str(raised.value) == IN_USE and not raised.value.lasting
    assert "in use by another program" in IN_USE and "within a minute" not in IN_USE
    del raised
    before = fake_picamera2.open_fds()
    for _ in range(20):  # retried at the capture's pace, each try a new Picamera2()
        with pytest.raises(CameraError, match="in use by another program"):
            open_source("picamera2").open()
    assert fake_picamera2.ATTEMPTS == 21 and fake_picamera2.open_fds() <= before
    fake_picamera2.BEHAVIOUR.busy = False
    assert len(read("picamera2", 2)) == 2 and fake_picamera2.ATTEMPTS == 22
    assert fake_picamera2.open_fds() <= before


def test_a_failed_construction_whose_pipe_cannot_be_closed_waits_a_minute(
        fake_picamera2, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should picamera2 change so that no half-built camera is found, each try would leak:
    then tries are a minute apart."""
    monkeypatch.setattr(picam, "_release_half_built", lambda exc, cls: False)
    fake_picamera2.BEHAVIOUR.busy = True
    for _ in range(5):
        with pytest.raises(CameraError, match="in use by another program"):
            open_source("picamera2").open()
    assert fake_picamera2.ATTEMPTS == 1


def test_a_camera_this_process_could_not_close_is_said_so_not_blamed_on_another_program(
        fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.stop_fails = 99  # stop() keeps raising: close() never releases it
    source = open_source("picamera2")
    source.open()
    source.read()
    source.close()
    with pytest.raises(CameraError, match="did not let go after it failed: restart") as raised:
        open_source("picamera2").open()
    assert raised.value.lasting


def test_a_stop_that_raises_once_still_releases_the_camera(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.stop_fails = 1
    source = open_source("picamera2")
    source.open()
    source.read()
    source.close()  # stop() raised; close() stopped it and let go
    assert fake_picamera2.CAMERAS[0].closed
    assert len(read("picamera2", 1)) == 1


def test_the_backend_holds_the_camera_until_close(fake_picamera2) -> None:
    first = open_source("picamera2")
    first.open()
    with pytest.raises(CameraError, match="in use by another program"):
        open_source("picamera2").open()
    first.close()
    picam._construct_failed["at"] = None
    assert len(read("picamera2", 1)) == 1


def test_no_camera_message_is_the_one_the_docs_quote() -> None:
    assert NO_CAMERA in " ".join((ROOT / "docs/camera.md").read_text().split())
    assert "reseat" in NO_CAMERA and "found only at boot" in NO_CAMERA


@pytest.mark.parametrize(("libcamera", "exposure"), [
    # libcamera 0.5's modes; the Pi's keeps AeEnable beside them
    ((0, 5), {"AeEnable": False, "ExposureTimeMode": 1, "AnalogueGainMode": 1}),
    ((0, 3), {"AeEnable": False}),
])
def test_exposure_and_white_balance_lock_once_after_a_second_of_steady_metadata(
        fake_picamera2, libcamera, exposure: dict) -> None:
    fake_picamera2.BEHAVIOUR.libcamera = libcamera
    fake_picamera2.BEHAVIOUR.metadata = lambda n: {
        k: v for k, v in fake_picamera2.settling(n).items() if k != "AeState"}
    frames = read("picamera2", 40)  # 10 fps: a second is 10 frames; the fake settles at frame 10
    camera = fake_picamera2.CAMERAS[0]
    [(before, controls)] = locks(camera)
    assert 10 + 10 <= before < 40
    settled = fake_picamera2.settling(10)
    assert controls == {**exposure, "AwbEnable": False, "ExposureTime": settled["ExposureTime"],
                        "AnalogueGain": settled["AnalogueGain"], "ColourGains": settled["ColourGains"]}
    assert len(frames) == 40


@pytest.mark.parametrize(("libcamera", "key", "converged", "searching"), [
    ((0, 5), "AeState", 2, 1),  # libcamera's AeStateConverged, AeStateSearching
    ((0, 3), "AeLocked", True, False),
])
def test_the_lock_comes_at_once_when_the_camera_says_exposure_converged(
        fake_picamera2, libcamera, key: str, converged, searching) -> None:
    fake_picamera2.BEHAVIOUR.libcamera = libcamera
    steady = {k: v for k, v in fake_picamera2.settling(10).items() if k not in ("AeState", "SensorTimestamp")}
    fake_picamera2.BEHAVIOUR.metadata = lambda n: {
        "SensorTimestamp": n, **steady, "ExposureTime": 10_000 + 100 * n,  # still creeping
        key: converged if n >= 2 else searching}
    read("picamera2", 20)
    [(before, controls)] = locks(fake_picamera2.CAMERAS[0])
    # at frame 4: exposure converged since frame 2, the colour gains held for 5 frames (0-4)
    assert before == 5 and controls["ExposureTime"] == 10_400


def test_the_lock_waits_for_the_colour_gains_after_exposure_has_converged(fake_picamera2) -> None:
    """Exposure converges at frame 5 (AeState), the white balance's gains move until frame 10:
    locked at once they would give the whole evening a colour cast."""
    read("picamera2", 30)
    [(before, controls)] = locks(fake_picamera2.CAMERAS[0])
    assert fake_picamera2.settling(5)["AeState"] == 2
    assert controls["ColourGains"] == fake_picamera2.settling(10)["ColourGains"]
    assert 10 < before <= 10 + 10


def test_a_camera_that_never_settles_is_locked_after_five_seconds_of_frames(fake_picamera2) -> None:
    def hunting(n: int) -> dict:
        return {**fake_picamera2.settling(n), "ExposureTime": 10_000 + 5_000 * (n % 2), "AeState": 1}

    fake_picamera2.BEHAVIOUR.metadata = hunting
    read("picamera2", 70)
    [(before, _)] = locks(fake_picamera2.CAMERAS[0])
    assert before == 50


def test_the_lock_sets_only_controls_the_camera_advertises(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.not_advertised = ("ExposureTimeMode", "AnalogueGainMode", "AeEnable")
    read("picamera2", 20)
    [(_, controls)] = locks(fake_picamera2.CAMERAS[0])
    assert not {"AeEnable", "ExposureTimeMode", "AnalogueGainMode"} & set(controls)
    assert controls["AwbEnable"] is False and controls["AnalogueGain"] == 2.25
    assert controls["ColourGains"] == fake_picamera2.settling(10)["ColourGains"]


def test_lock_off_leaves_exposure_alone(fake_picamera2) -> None:
    read("picamera2:640x480,lock=off", 30)
    assert locks(fake_picamera2.CAMERAS[0]) == []


@pytest.mark.parametrize(("spec", "lens"), [("picamera2", DEFAULT_LENS), ("picamera2:640x480,lens=2.5", 2.5)])
def test_a_camera_with_autofocus_is_put_in_manual_focus(fake_picamera2, spec: str, lens: float) -> None:
    read(spec, 2)
    focus = [c for _, c in fake_picamera2.CAMERAS[0].controls_set if "AfMode" in c or "LensPosition" in c]
    assert focus == [{"AfMode": 0, "LensPosition": lens}]
    assert round(1 / DEFAULT_LENS, 2) == 0.7


def test_a_camera_without_autofocus_gets_no_focus_controls(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.sensor = "imx219"
    read("picamera2:640x480,lens=2.5", 20)
    controls = [c for _, c in fake_picamera2.CAMERAS[0].controls_set]
    assert all("AfMode" not in c and "LensPosition" not in c for c in controls)
    assert len(locks(fake_picamera2.CAMERAS[0])) == 1


def test_a_lens_position_the_camera_cannot_take_is_refused_and_the_camera_closed(fake_picamera2) -> None:
    source = open_source("picamera2:640x480,lens=20")
    with pytest.raises(CameraError, match=r"lens=20 is outside this camera's 0\.\.15"):
        source.open()
    assert fake_picamera2.CAMERAS[0].closed


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


@pytest.mark.parametrize(("mains", "period"), [(50, 10_000), (60, 8_333)])
def test_mains_hides_a_lamps_flicker_where_the_camera_can(fake_picamera2, mains: int, period: int) -> None:
    read(f"picamera2:640x480,mains={mains}", 2)
    flicker = [c for _, c in fake_picamera2.CAMERAS[0].controls_set if "AeFlickerMode" in c]
    assert flicker == [{"AeFlickerMode": 1, "AeFlickerPeriod": period}]


def test_mains_on_a_camera_without_flicker_control_sets_nothing(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.not_advertised = ("AeFlickerMode", "AeFlickerPeriod")
    read("picamera2:640x480,mains=50", 2)
    assert not [c for _, c in fake_picamera2.CAMERAS[0].controls_set if "AeFlickerMode" in c]


def test_mains_is_50_60_or_off() -> None:
    assert open_source("picamera2:640x480,mains=60Hz").mains == 60
    assert open_source("picamera2:640x480,mains=off").mains is None
    with pytest.raises(CameraError, match="mains is 50, 60 or off"):
        open_source("picamera2:640x480,mains=55")


# --- the install: picamera2 that will not import ----------------------------------------------


class _Broken:
    """A ``picamera2`` module whose import raises ``error`` (as apt's does over a NumPy 2)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def find_spec(self, name, path=None, target=None):
        if name != "picamera2":
            return None
        import importlib.util

        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        raise self.error


NUMPY_ABI = ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                       "Expected 96 from C header, got 88 from PyObject")


@pytest.fixture
def broken_picamera2(monkeypatch: pytest.MonkeyPatch):
    def install(error: BaseException) -> None:
        monkeypatch.delitem(sys.modules, "picamera2", raising=False)
        monkeypatch.setattr(sys, "meta_path", [_Broken(error), *sys.meta_path])

    return install


@pytest.mark.parametrize(("error", "says"), [
    (NUMPY_ABI, r"^picamera2 cannot load: the venv's NumPy \S+ is not the apt NumPy .*uninstall -y numpy"),
    (ImportError("numpy.core.multiarray failed to import"), r"^picamera2 cannot load: .*apt NumPy \(1\.24\)"),
    (ImportError("No module named 'libcamera'", name="libcamera"), r"^picamera2 cannot load \(ImportError: .*"
     r"reinstall -y python3-picamera2"),
    (OSError("libcamera.so.0.5: cannot open shared object file"), r"^picamera2 cannot load \(OSError: "),
])
def test_picamera2_that_will_not_import_is_one_lasting_line_with_its_fix(
        broken_picamera2, error: BaseException, says: str) -> None:
    broken_picamera2(error)
    with pytest.raises(CameraError, match=says) as raised:
        open_source("picamera2").open()
    assert raised.value.lasting and "\n" not in str(raised.value)


def test_the_capture_stops_retrying_a_picamera2_that_will_not_import(broken_picamera2) -> None:
    broken_picamera2(NUMPY_ABI)
    log = StatusLog()
    capture = Capture(lambda: open_source("picamera2"), backoff=(0.01, 0.01), on_status=log)
    with capture:
        log.wait_for(lambda seen: bool(seen) and seen[-1]["state"] == "failed")
        capture._thread.join(WAIT)
        assert not capture._thread.is_alive()
    assert log.states()[:1] == ["failed"] and "lost" not in log.states()
    assert log.seen[0]["retry_in"] is None and "pip uninstall -y numpy" in log.seen[0]["error"]


def test_crib_camera_check_says_a_broken_picamera2_in_one_line_and_exits_2(
        broken_picamera2, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    broken_picamera2(NUMPY_ABI)
    assert main(["camera", "check", "picamera2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert "picamera2 cannot load" in captured.err and "pip install -e '.[pi]'" in captured.err


# --- the lens advice: the field of view the picture really has -------------------------------


@pytest.mark.parametrize(("spec", "field"), [("picamera2:1280x720", 66.0), ("picamera2:1280x960", 51.94),
                                             ("picamera2:1024x1024", 40.13)])
def test_each_frame_says_its_field_of_view_from_the_sensors_crop(
        fake_picamera2, spec: str, field: float) -> None:
    [frame] = read(spec, 1)
    assert frame.field_of_view == pytest.approx(field, abs=0.1)


def test_a_camera_without_autofocus_gives_no_field_of_view(fake_picamera2) -> None:
    fake_picamera2.BEHAVIOUR.sensor = "imx219"
    [frame] = read("picamera2:1280x960", 1)
    assert frame.field_of_view is None


def test_the_lens_advice_for_a_4_3_picture_uses_the_cropped_field(fake_picamera2) -> None:
    """A Camera Module 3 70 cm over the table, 4:3: a card is 119 px wide in 1280."""
    from vision.camera.check import lens_position

    [frame] = read("picamera2:1280x960", 1)
    card = 1280 / 2 / np.tan(np.radians(frame.field_of_view / 2)) * 0.0635 / 0.70
    assert lens_position(card, 1280, frame.field_of_view) == (1.43, 70)
    assert lens_position(card, 1280) == (1.9, 53)  # what assuming the whole 66° said
