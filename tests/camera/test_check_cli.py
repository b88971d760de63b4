"""``crib camera check SOURCE [--json]``: output, exit status and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from vision.synth.setup_frames import flickering, good_frame, too_dark


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("table")
    img, _ = good_frame(2, "procedural-7", "wood_light", tilt=0.08)
    cv2.imwrite(str(folder / "good.png"), img)
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
