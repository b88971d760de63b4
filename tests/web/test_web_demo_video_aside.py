"""``crib serve --demo --camera video:...``: the demo video never plays into a game started on the
page, and its passes do not pile up in History (issue 37, defect 1).

The video is a drawn table (``tests.track.table``) read by the patch reader: each pass shows the
starter 7♣ turned in the centre. Passes are let through one at a time, so the test says what the
table holds between them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from browserkit import chromium_path, phone_page, served_in_process

from companion.names import PLAYER_NAMES
from companion.service import Companion, ServeConfig, start_camera
from cribbage.gamelog import GameStore
from tests.track.table import DrawnTable, patch_reader
from vision.camera import Frame


def starter_pass() -> list[np.ndarray]:
    """One pass of the video: an empty table, a hand turning 7♣ in the centre, the table still."""
    table = DrawnTable()
    frames = [table.frame() for _ in range(8)]
    for hy in (330, 300, 150):
        frames.append(table.frame(hand=(320, hy)))
    table.lay("7C", 320, 150)
    frames.append(table.frame(hand=(320, 330)))
    frames += [table.frame() for _ in range(12)]
    return frames


class Reel:
    """The video on a loop; each pass waits until the test lets it through (:meth:`play`)."""

    def __init__(self) -> None:
        self.frames = starter_pass()
        self.gate = threading.Semaphore(0)
        self.passes = 0  # passes read to the end

    def source(self) -> Any:
        reel = self

        class Pass:
            live = False
            fps = 10.0
            spec = "video:drawn"

            def __init__(self) -> None:
                self.number = 0

            def open(self) -> None:
                pass

            def read(self) -> Frame | None:
                if self.number == 0 and not reel.gate.acquire(timeout=20):
                    return None
                if self.number == len(reel.frames):
                    reel.passes += 1
                    return None
                self.number += 1
                return Frame(reel.frames[self.number - 1], self.number, self.number / 10)

            def close(self) -> None:
                pass

        return Pass()

    def play(self, wait_until: Callable[[], bool] | None = None) -> None:
        """Let one pass through and wait until it has been read (and ``wait_until`` holds)."""
        done = self.passes + 1
        self.gate.release()
        wait_for(lambda: self.passes >= done and (wait_until is None or wait_until()))


def wait_for(what: Callable[[], Any], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[Companion, Reel]]:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    reel = Reel()
    config = ServeConfig(data_dir=tmp_path, demo=True, camera="video:drawn")
    start_camera(config, companion, make_source=reel.source, reader=patch_reader, realtime=False,
                 backoff=(0.01, 0.05))
    yield companion, reel
    companion.close()


def starter(companion: Companion, game: int | None) -> Any:
    assert game is not None
    return companion.state(game).get("starter")


def test_each_pass_of_the_demo_video_replaces_the_last_in_history(demo: tuple[Companion, Reel]) -> None:
    companion, reel = demo
    first = companion.latest_game()
    reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
    assert [g["id"] for g in companion.games()] == [first]
    for _ in range(2):  # the video begins again: a new demo game that replaces the last
        reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
    listed = companion.games()
    assert len(listed) == 1 and listed[0]["id"] == companion.latest_game() != first
    assert [p["name"] for p in companion.state(listed[0]["id"])["players"]] == list(PLAYER_NAMES[:2])


def test_a_game_started_on_the_page_pauses_the_demo_and_never_gets_the_video_s_cards(
        demo: tuple[Companion, Reel]) -> None:
    companion, reel = demo
    reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
    demo_game = companion.latest_game()
    real = companion.new_game({"players": ["Ann", "Cy"]})  # the New tab
    companion.apply(real, {"type": "dealer", "seat": "A"}, source="page")
    for _ in range(2):  # the video turns 7♣ as the starter, and loops
        reel.play()
    assert starter(companion, real) is None  # the page's game got nothing from the video
    assert companion.latest_game() == real  # no demo game started over it
    assert [g["id"] for g in companion.games()] == [real, demo_game]
    assert companion.camera is not None and companion.camera.status()["game"] is None
    events = companion.events(real)
    assert [e.get("source") for e in events] == ["page"]
    companion.apply(real, {"type": "adjust", "seat": "A", "points": 121, "reason": "test"},
                    source="page")  # the game is over: the next pass is the demo's again
    reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
    latest = companion.latest_game()
    assert latest not in (real, demo_game)
    assert [g["id"] for g in companion.games()] == [latest, real]


def test_the_paused_demo_says_why_in_players_words(demo: tuple[Companion, Reel]) -> None:
    companion, reel = demo
    camera = companion.camera
    assert camera is not None
    reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
    assert camera.status()["paused"] is None  # the demo's own game is followed
    real = companion.new_game({"players": ["Ann", "Cy"]})  # the New tab
    reel.play(lambda: camera.status()["game"] is None)
    assert camera.status()["paused"] == ("The demo is paused while Ann v Cy, started on the page, "
                                         "is played: it goes on once that game is over.")
    companion.apply(real, {"type": "dealer", "seat": "A"}, source="page")
    companion.apply(real, {"type": "adjust", "seat": "A", "points": 121, "reason": "test"},
                    source="page")  # over: the demo waits for the video to start again
    assert camera.status()["paused"] == ("The demo is paused: Ann v Cy, started on the page, is "
                                         "over; the demo goes on when the video starts again.")
    reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
    assert camera.status()["paused"] is None


CHROMIUM = chromium_path()


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="browser tests skipped: Chromium not found")
@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["upright", "on-its-side"])
def test_the_camera_tab_says_why_the_demo_is_paused(demo: tuple[Companion, Reel], tmp_path: Path,
                                                    size: tuple[int, int]) -> None:
    from playwright.sync_api import expect

    from web import create_app

    companion, reel = demo
    reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
    app = create_app(companion, {"DATA_DIR": tmp_path, "SSE_HEARTBEAT": 1.0})
    with served_in_process(app, threads=12) as url, phone_page(url, size) as page:
        page.click('#tabs a[data-tab="camera"]')
        words = page.locator("#cam-expect")
        expect(words).not_to_contain_text("paused")
        companion.new_game({"players": ["Ann", "Cy"]})  # another phone's New tab
        reel.play()
        expect(words).to_have_text("The demo is paused while Ann v Cy, started on the page, is "
                                   "played: it goes on once that game is over.")
        box = words.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
