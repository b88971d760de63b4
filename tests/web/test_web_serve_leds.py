"""The LEDs behind ``crib serve`` (``companion.leds``): the newest state drawn on a thread, the
board's layouts, a fixed board opened at start."""

from __future__ import annotations

import logging
import threading
from typing import Any

import pytest

from companion.leds import BoardLeds, LedWorker
from firmware.layout import BoardLayout


def two_players(events: int, front_a: int = 0) -> dict[str, Any]:
    return {"game": 1, "events": events, "target": 121, "sides": [{"id": "A"}, {"id": "B"}],
            "pegs": {"A": [front_a, 0], "B": [0, 0]}}


def test_a_slow_strip_draws_only_the_newest_state() -> None:
    drawn: list[int] = []
    started, release = threading.Event(), threading.Event()

    def draw(state: dict[str, Any]) -> None:
        started.set()
        release.wait(5)
        drawn.append(state["events"])

    worker = LedWorker(draw)
    try:
        worker.submit(two_players(1))
        assert started.wait(5)
        for events in (2, 3, 4):  # queued while the first is on the strip
            worker.submit(two_players(events))
        assert not worker.wait_idle(0.05)
        release.set()
        assert worker.wait_idle()
        assert drawn == [1, 4] and worker.frames == 2
    finally:
        release.set()
        worker.close()


def test_a_failing_strip_is_logged_and_the_next_state_drawn(caplog: pytest.LogCaptureFixture) -> None:
    drawn: list[int] = []

    def draw(state: dict[str, Any]) -> None:
        if state["events"] == 1:
            raise OSError("strip unplugged")
        drawn.append(state["events"])

    worker = LedWorker(draw)
    try:
        with caplog.at_level(logging.ERROR, logger="companion"):
            worker.submit(two_players(1))
            assert worker.wait_idle()
            worker.submit(two_players(2))
            assert worker.wait_idle()
        assert drawn == [2] and worker.frames == 1
        assert "LED output failed" in caplog.text
    finally:
        worker.close()


def test_no_leds_still_give_the_pages_board() -> None:
    leds = BoardLeds("none", board_tracks=3, board_laps=2)
    try:
        assert not leds.enabled and leds.name == "none" and leds.worker is None
        leds.show(two_players(1, front_a=5))
        assert leds.wait() and leds.output is None and leds.latest_png() is None
        layout = leds.layout(2, 121)  # the physical board's tracks win
        assert layout is leds.layout(3, 121)
        assert layout.to_dict() == BoardLayout.standard(tracks=3, laps=2, target=121).to_dict()
    finally:
        leds.close()


def test_a_fixed_board_is_opened_at_start_and_counts_its_frames() -> None:
    frames: list[int] = []
    leds = BoardLeds("sim", board_tracks=3, on_frame=frames.append)
    try:
        assert leds.output is not None  # before any game: a bad strip fails at start
        assert leds.output.leds == BoardLayout.standard(tracks=3).led_count
        assert leds.name == "sim" and leds.enabled and not leds.animate
        leds.show(two_players(1, front_a=2))
        assert leds.wait()
        leds.show(two_players(2, front_a=4))
        assert leds.wait()
        assert frames == [1, 2]
        lit = {(e.seat, e.peg): e.hole for e in leds.output.latest_frame.pegs()}
        assert lit[("A", "front")] == 4
        assert leds.output.leds == BoardLayout.standard(tracks=3).led_count  # two players, 3 tracks
    finally:
        leds.close()


def test_the_simulated_board_follows_the_game() -> None:
    leds = BoardLeds("sim")
    try:
        assert leds.output is None  # opened for the first game's board
        leds.show(two_players(1))
        assert leds.wait()
        assert leds.output is not None and leds.output.leds == BoardLayout.standard(tracks=2).led_count
        three = {"game": 2, "events": 1, "target": 121,
                 "sides": [{"id": "A"}, {"id": "B"}, {"id": "C"}], "pegs": {}}
        leds.show(three)
        assert leds.wait()
        assert leds.output.leds == BoardLayout.standard(tracks=3).led_count
    finally:
        leds.close()
