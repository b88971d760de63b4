"""``crib track``: the command-line contract acceptance checks use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from vision.synth.compose import drawn_table

# the starter, then B (top edge, cards upside down) and A (bottom edge) lay in turn
CARDS = [("JH", 560, 360, 0), ("5S", 300, 150, 180), ("TS", 300, 580, 3), ("5H", 345, 148, 178)]


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> list:
    return [drawn_table(CARDS[:k], width=130, seed=3, table="wood_dark") for k in range(len(CARDS) + 1)]


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory, frames: list) -> Path:
    path = tmp_path_factory.mktemp("track") / "deal.mp4"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10, (1280, 720))
    for img in frames:
        for _ in range(12):
            out.write(img)
    out.release()
    return path


def track(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["track", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_json_contract(video: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = track([str(video), "--dealer", "A", "--players", "Ann,Bob", "--json"], capsys)
    assert status == 0
    result = json.loads(out.strip().splitlines()[-1])
    assert [(e["type"], e.get("seat"), e["card"]) for e in result["events"]] == [
        ("starter", None, "JH"), ("play", "B", "5S"), ("play", "A", "TS"), ("play", "B", "5H")]
    assert all(0.6 <= e["confidence"] <= 1 for e in result["events"])
    frames = [e["frame"] for e in result["events"]]
    assert frames == sorted(frames) and frames[0] >= 12
    for k, frame in enumerate(frames, 1):  # each committed within 10 frames of the card lying there
        assert 12 * k <= frame <= 12 * k + 10
    assert result["frames"] == 60
    assert result["state"]["scores"] == {"A": 4, "B": 0}  # heels 2, fifteen 2
    assert set(result["ms_per_frame"]) == {"mean", "p95"} and result["flagged"] == []


def test_a_folder_of_frames_and_a_db_with_crops(tmp_path: Path, frames: list,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    n = 0
    for img in frames:
        for _ in range(8):
            cv2.imwrite(str(folder / f"f{n}.jpg"), img)  # f2 before f10: name order is natural
            n += 1
    db = tmp_path / "game.db"
    status, out, _ = track([str(folder), "--db", str(db)], capsys)
    assert status == 0
    assert "frame" in out and "play" in out and out.strip().splitlines()[-1].startswith("40 frames")
    assert main(["game", "state", "--db", str(db), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert [p["card"] for p in state["plays"]] == ["5S", "TS", "5H"]
    crops = sorted((tmp_path / "crops").glob("*.jpg"))
    assert len(crops) == 4 and cv2.imread(str(crops[0])) is not None


@pytest.mark.parametrize("args, words", [
    (["nowhere.mp4"], "no video or folder"),
    (["{video}", "--dealer", "E"], "seat"),
    (["{video}", "--zones", "nowhere.json"], "no zones file"),
    (["{video}", "--zones", "{zones3}"], "3 players"),
    (["{text}"], "cannot read it"),
    (["{photo}"], "is a still photo (JPEG), not a video"),
    (["{png}", "--json"], "is a still photo (PNG), not a video"),
    (["{one}"], "holds one frame"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str, video: Path, tmp_path: Path,
                                          frames: list) -> None:
    """A still photo, or a video of one frame, is refused at once ("1 frames, 0 events" and exit
    0 before)."""
    photo, png, one = tmp_path / "table.jpg", tmp_path / "table.mp4", tmp_path / "one.mp4"
    cv2.imwrite(str(photo), frames[-1])
    cv2.imwrite(str(tmp_path / "t.png"), frames[-1])
    (tmp_path / "t.png").rename(png)  # a photo named as a video is still a photo
    out = cv2.VideoWriter(str(one), cv2.VideoWriter_fourcc(*"mp4v"), 10, (1280, 720))
    out.write(frames[-1])
    out.release()
    zones3 = tmp_path / "zones.json"
    seats = {"A": [0, 0.5, 1, 1], "B": [0, 0, 0.5, 0.5], "C": [0.5, 0, 1, 0.5]}
    zones3.write_text(json.dumps({"players": 3, "centre": [0.3, 0.35, 0.7, 0.65], "seats": seats}))
    text = tmp_path / "notes.txt"
    text.write_text("not a video")
    argv = [a.format(video=video, zones3=zones3, text=text, photo=photo, png=png, one=one)
            for a in args]
    run = subprocess.run([sys.executable, "-m", "companion.cli", "track", *argv],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and words in run.stderr
    assert "Traceback" not in run.stderr
