"""The demo of ``crib serve --demo`` (``companion.demo``): simulate's random player, one event a step."""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest

from companion.demo import NAMES, SETTINGS, DemoDealer, demo_events
from companion.names import PLAYER_NAMES
from companion.service import Companion
from cribbage.errors import RuleError
from cribbage.game import Settings
from cribbage.game.simulate import random_events
from cribbage.gamelog import GameStore


def test_the_demo_plays_the_random_players_game_to_the_end(tmp_path: Path) -> None:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="sim")
    demo = DemoDealer(companion, step_s=0)
    try:
        game = demo.start()
        deadline = time.monotonic() + 30
        while companion.state(game)["phase"] != "over" and time.monotonic() < deadline:
            time.sleep(0.05)
        state = companion.state(game)
        assert state["phase"] == "over" and [p["name"] for p in state["players"]] == list(NAMES)
        assert max(state["scores"].values()) == 121
        log = companion.events(game)
        assert {entry["source"] for entry in log} == {"demo"}
        player = random_events(Settings.from_json(SETTINGS), random.Random(121), hands_known=False,
                               dealer="B")
        assert [entry["event"] for entry in log] == [event for _game, event in player]
        assert log[0]["event"] == {"type": "dealer", "seat": "B"}
        assert {entry["event"]["type"] for entry in log} == {"dealer", "starter", "play", "go",
                                                             "show", "crib"}
        assert companion.wait_leds()
    finally:
        demo.stop()
        companion.close()


class RefusingTable:
    """A table that refuses the demo's fourth event."""

    def __init__(self) -> None:
        self.applied: list[dict[str, Any]] = []

    def new_game(self, settings: dict[str, Any]) -> int:
        self.settings = settings
        return 7

    def apply(self, game_id: int, event: dict[str, Any], source: str = "page") -> dict[str, Any]:
        if len(self.applied) == 3:
            raise RuleError("not that card")
        self.applied.append(event)
        return {}

    def latest_game(self) -> int | None:
        return 7


def test_the_demo_stops_at_an_event_the_game_refuses(caplog: pytest.LogCaptureFixture) -> None:
    table = RefusingTable()
    demo = DemoDealer(table, step_s=0.01)
    with caplog.at_level(logging.INFO, logger="companion"):
        assert demo.start() == 7
        time.sleep(0.4)
        demo.stop()
    assert table.settings == {"players": list(PLAYER_NAMES[:2]), "variant": "six-card", "counting": "auto"}
    assert table.applied == list(demo_events())[:3]
    assert "demo: event refused; the demo stops" in caplog.text
    assert "game over" not in caplog.text


def test_the_dealer_said_deals_each_pass_of_the_video_demo_and_the_demo_game(tmp_path: Path) -> None:
    """``crib serve --dealer``: each pass of the demo video is a game with that dealer; the random
    players' demo deals first as told (Bob by default)."""
    from companion.demo import VideoDemo

    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    try:
        video = VideoDemo(companion, dealer="B")
        assert companion.state(video.begin_pass())["dealer"] == "B"
        second = video.begin_pass()
        assert companion.state(second)["dealer"] == "B"  # the next pass too
        again = VideoDemo(companion, earlier=[second])  # a later run, without --dealer
        assert companion.state(again.begin_pass())["dealer"] == "A"  # the video's own
        assert next(demo_events(dealer="A")) == {"type": "dealer", "seat": "A"}
        assert next(demo_events()) == {"type": "dealer", "seat": "B"}
    finally:
        companion.close()
