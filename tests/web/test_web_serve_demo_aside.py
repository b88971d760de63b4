"""``crib serve --demo`` on a data folder holding a real game in progress leaves that game on the page."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from browserkit import start_server, stop_server

from companion.service import Companion, real_game_in_progress
from cribbage.gamelog import GameStore


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def test_which_games_a_demo_must_not_hide(tmp_path: Path) -> None:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    try:
        assert real_game_in_progress(companion) is None  # no game at all
        demo = companion.new_game({"players": ["Alice", "Bob"]})
        companion.apply(demo, {"type": "dealer", "seat": "A"}, source="demo")
        assert real_game_in_progress(companion) is None  # the demo's own game
        real = companion.new_game({"players": ["Ann", "Bob"]})
        assert real_game_in_progress(companion) == real  # started on the page, nothing sent yet
        companion.apply(real, {"type": "dealer", "seat": "B"}, source="page")
        assert real_game_in_progress(companion) == real
    finally:
        companion.close()


def test_a_restarted_demo_steps_aside_for_the_game_in_progress(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with GameStore(data / "games.sqlite3") as store:
        game = store.new_game({"players": "Ann,Bob"})
        store.apply(game, {"type": "dealer", "seat": "B"}, source="page")
    proc, url = start_server(data, "--demo", "--demo-step", "0.1", stderr=subprocess.PIPE)
    try:
        time.sleep(1.5)  # the demo would have started its game and played a dozen moves by now
        games = get(url + "api/games")
        latest = get(url + "api/games/latest")["state"]
    finally:
        stop_server(proc)
    log = proc.stderr.read() if proc.stderr is not None else ""
    assert len(games["games"]) == 1 and games["latest"] == game
    assert latest["game"] == game and latest["events"] == 1 and latest["players"][0]["name"] == "Ann"
    assert "the demo steps aside" in log
