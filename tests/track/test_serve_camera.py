"""``crib serve --demo --camera video:PATH``: waitress in a subprocess follows a filmed deal."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.names import PLAYER_NAMES
from tests.web.browserkit import start_server, stop_server
from vision.synth.compose import drawn_table

CARDS = [("JH", 560, 360, 0), ("5S", 300, 150, 180), ("TS", 300, 580, 3)]


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        body = response.read()
        return body if response.headers["Content-Type"].startswith("image/") else json.loads(body)


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "deal.mp4"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10, (1280, 720))
    for k in range(len(CARDS) + 1):
        img = drawn_table(CARDS[:k], width=130, seed=3, table="wood_dark")
        for _ in range(12):
            out.write(img)
    out.release()
    return path


def test_the_demo_follows_a_video_into_the_game_the_page_and_the_leds(tmp_path: Path, video: Path) -> None:
    proc, url = start_server(tmp_path / "data", "--demo", "--camera", f"video:{video}", "--leds", "sim")
    try:
        camera = get(url + "api/camera")
        assert camera["source"] == f"video:{video.name}"  # the file's name, not the server's folder
        assert camera["zones"]["players"] == 2
        assert get(url + "api/session")["companion"]["camera"] is True
        deadline = time.monotonic() + 60
        state: dict[str, Any] = {}
        while time.monotonic() < deadline:
            state = get(url + "api/games/latest")["state"]
            if len(state["plays"]) == 2:
                break
            time.sleep(0.2)
        assert state["players"][0]["name"] == PLAYER_NAMES[0] and state["starter"] == "JH"
        assert [(p["seat"], p["card"]) for p in state["plays"]] == [("B", "5S"), ("A", "TS")]
        assert state["scores"] == {"A": 4, "B": 0}  # his heels, then fifteen two
        events = get(url + f"api/games/{state['game']}/events")
        camera_events = [e for e in events["events"] if e["source"] == "camera"]
        assert [e["event"]["type"] for e in camera_events] == ["starter", "play", "play"]
        crop = camera_events[0]["event"]["seen"]["crop"]
        assert get(url + "api/camera/" + crop)[:2] == b"\xff\xd8"
        assert get(url + "api/camera/snapshot.jpg")[:2] == b"\xff\xd8"
        assert get(url + "api/leds.png")[:4] == b"\x89PNG"
    finally:
        assert stop_server(proc) == 0


@pytest.mark.parametrize(("content", "words"), [
    (None, "no such file"),
    ("{not json", "cannot read zones"),
    ('{"players": 2, "centre": "middle", "seats": {}}', "four numbers"),
    (json.dumps({"players": 2, "centre": [0, 0, 1, 1], "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0, 1, 0.5]}}),
     "covers 100%"),
    (json.dumps({"players": 2, "centre": [0.3, 0.35, 0.7, 0.65],
                 "seats": {"A": [0, 0.5, 1, 1], "B": [0.1, 0.7, 0.5, 0.95]}}),
     "seat B's zone lies inside seat A's"),
    (json.dumps({"players": 2, "centre": [0.3, 0.35, 0.7, 0.65],
                 "seats": {"A": ["0", "0.5", "1", "1"], "B": [0, 0, 1, 0.5]}}), "four numbers"),
])
def test_a_bad_zones_file_stops_crib_serve_at_start(tmp_path: Path, video: Path, content: str | None,
                                                    words: str) -> None:
    """Not the defaults in silence: one line on stderr naming the file, exit status 2."""
    import subprocess
    import sys

    zones = tmp_path / "table.json"
    if content is not None:
        zones.write_text(content)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", "0",
         "--data", str(tmp_path / "data"), "--leds", "none", "--camera", f"video:{video}",
         "--zones", str(zones)],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "table.json" in lines[0] and words in lines[0], lines
    assert done.stdout == ""
