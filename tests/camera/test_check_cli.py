"""``crib camera check SOURCE [--json]``: output, exit status and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.synth.compose import mild, table_image
from vision.synth.setup_frames import flickering, good_frame, out_of_focus, too_dark


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("table")
    img, width = good_frame(2, "procedural-7", "wood_light", tilt=0.08)
    cv2.imwrite(str(folder / "good.png"), img)
    cv2.imwrite(str(folder / "blurred.png"), out_of_focus(img, 0.03 * width))
    rng = np.random.default_rng(9)
    cv2.imwrite(str(folder / "empty.png"), mild(table_image(rng, 720, 1280, "wood_light"), rng))
    cv2.imwrite(str(folder / "dark.png"), too_dark(img, 0.3))
    (folder / "clip").mkdir()
    for k, f in enumerate(flickering(img, 6)):
        cv2.imwrite(str(folder / "clip" / f"f{k}.jpg"), f)
    (folder / "broken.jpg").write_bytes(b"not a photo at all")
    return folder


def last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_a_good_photo_is_ready_to_play(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["camera", "check", str(photos / "good.png")]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 8 and all(line.startswith("✓") for line in lines[:7])
    assert lines[-1].startswith("Ready to play")
    focus = next(line for line in lines if line.startswith("✓ focus"))
    assert "(LensPosition " in focus and "--camera picamera2:lens=" in focus  # the numbers, for the CLI


def test_a_blurred_photo_says_focus_first_with_no_lens_position(photos: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["camera", "check", str(photos / "blurred.png")]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    focus = next(line for line in lines if " focus " in line)
    assert focus.startswith("✗ focus") and "focus first" in focus and "100 / the lens's height" in focus
    assert "LensPosition 1" not in focus and "LensPosition 2" not in focus  # no reading from a blur
    distance = next(line for line in lines if " distance " in line)
    assert distance.startswith("… distance") and "focus first" in distance
    assert lines[-1].startswith("Fix focus")


def test_an_empty_table_waits_for_cards(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["camera", "check", str(photos / "empty.png")]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert sum(line.startswith("…") for line in lines) == 6
    assert not any(line.startswith("✗") for line in lines)
    assert lines[-1].startswith("No card seen")


def test_a_dark_photo_exits_0_and_says_what_to_fix(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["camera", "check", str(photos / "dark.png"), "--json"]) == 0
    data = last_json(capsys.readouterr().out)
    assert data["ok"] is False and data["source"] == str(photos / "dark.png")
    light = next(c for c in data["checks"] if c["name"] == "light")
    assert light["ok"] is False and light["say"].startswith("Too dark")
    assert main(["camera", "check", str(photos / "dark.png")]) == 0
    out = capsys.readouterr().out
    assert "✗ light" in out and out.strip().splitlines()[-1].startswith("Fix light")


def test_a_folder_of_flickering_frames(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["camera", "check", f"frames:{photos / 'clip'}", "--json"]) == 0
    data = last_json(capsys.readouterr().out)
    assert data["frames"] == 6
    flicker = next(c for c in data["checks"] if c["name"] == "flicker")
    assert flicker["ok"] is False and "mains=50" in flicker["say"]


@pytest.mark.parametrize("source", ["nope:3", "opencv:abc", "{missing}", "video:{missing}", "{broken}"])
def test_bad_input_is_one_line_and_status_2(photos: Path, source: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    spec = source.format(missing=photos / "missing.mp4", broken=photos / "broken.jpg")
    assert main(["camera", "check", spec, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert captured.err.startswith("crib camera: ")
