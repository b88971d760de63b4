"""The camera starts the game: with no game in progress, a deal seen on the table starts one
(``crib serve --camera``), never over a game started on the page, never in the demo."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.camera import CameraService
from companion.service import Companion, ServeConfig, start_camera
from cribbage.game.settings import Settings
from cribbage.game.simulate import random_events
from cribbage.gamelog import GameStore
from tests.track.table import DrawnTable, patch_reader
from tests.track.test_camera_service import Script, ScriptedSource, wait_for
from vision.synth.compose import drawn_table

# the starter in the centre; Bob (top) lays first, so Ann dealt; Ann answers with a ten
CARDS = [("JH", 560, 360, 0), ("5S", 300, 150, 180), ("TS", 300, 580, 3)]


def render(path: Path, cards: list[tuple[str, int, int, int]], still: int = 12) -> Path:
    """A video of a deal: the empty table, then each card laid in turn, ``still`` frames each."""
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10, (1280, 720))
    for k in range(len(cards) + 1):
        img = drawn_table(cards[:k], width=130, seed=3, table="wood_dark")
        for _ in range(still):
            out.write(img)
    out.release()
    return path


@pytest.fixture
def video(tmp_path: Path) -> Path:
    return render(tmp_path / "deal.mp4", CARDS)


@pytest.fixture
def companion(tmp_path: Path) -> Any:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    yield companion
    companion.close()


def finished_game(companion: Companion, players: list[str]) -> int:
    """A game of ``players`` played to its end (the engine's random player)."""
    settings = {"players": players, "variant": "six-card", "counting": "auto", "target": 61}
    game = companion.new_game(settings)
    for _, event in random_events(Settings.from_json(settings), random.Random(7), hands_known=False,
                                  dealer="B"):
        companion.apply(game, event)
    assert companion.state(game)["phase"] == "over"
    return game


def camera_on(companion: Companion, spec: str, data: Path, **kwargs: Any) -> CameraService:
    camera = CameraService(companion, spec, data, realtime=False, start_games=True, **kwargs)
    companion.attach_camera(camera)
    camera.start()
    return camera


def plays(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p["seat"], p["card"]) for p in state["plays"]]


def test_a_deal_seen_with_no_game_starts_a_game_of_the_last_players(companion: Companion, tmp_path: Path,
                                                                     video: Path) -> None:
    last = finished_game(companion, ["Cy", "Dee"])
    told: list[dict[str, Any]] = []
    companion.add_listener(lambda topic, data: told.append(data) if topic == "camera" else None)
    camera = camera_on(companion, f"video:{video}", tmp_path)
    try:
        wait_for(lambda: camera.status()["state"] == "ended", timeout=120)
        game = companion.latest_game()
        assert game is not None and game != last
        wait_for(lambda: len(companion.state(game)["plays"]) == 2, timeout=30)
        state = companion.state(game)
        assert [p["name"] for p in state["players"]] == ["Cy", "Dee"]
        assert state["target"] == 61  # the last game's settings
        assert state["starter"] == "JH" and plays(state) == [("B", "5S"), ("A", "TS")]
        assert state["dealer"] == "A" and state["scores"] == {"A": 4, "B": 0}  # his heels, fifteen two
        events = companion.events(game)
        # no dealer given: the follower found it from the first card of the play
        assert [(e["event"]["type"], e["source"]) for e in events] == [
            ("dealer", "camera"), ("starter", "camera"), ("play", "camera"), ("play", "camera")]
        status = camera.status()
        assert status["game"] == game
        assert {k: status["started"][k] for k in ("game", "by", "players")} == {
            "game": game, "by": "camera", "players": ["Cy", "Dee"]}
        assert "Cy v Dee" in status["started"]["say"] and "New tab" in status["started"]["say"]
        # the page was told while the camera watched, in players' words
        assert any("starts a game of Cy v Dee" in (s.get("expect") or "") for s in told)
    finally:
        camera.close()


def test_a_game_started_with_no_game_ever_has_the_default_names(companion: Companion, tmp_path: Path,
                                                                 video: Path) -> None:
    camera = camera_on(companion, f"video:{video}", tmp_path)
    try:
        wait_for(lambda: companion.latest_game() is not None, timeout=120)
        game = companion.latest_game()
        state = companion.state(game)
        assert [p["name"] for p in state["players"]] == ["Ann", "Bob"]
        wait_for(lambda: camera.status()["state"] == "ended" and len(companion.state(game)["plays"]) == 2,
                 timeout=120)
        assert companion.state(game)["starter"] == "JH"
        assert [g["id"] for g in companion.games()] == [game]  # one deal, one game
    finally:
        camera.close()


def test_a_game_started_on_the_page_is_followed_never_replaced(companion: Companion, tmp_path: Path,
                                                                video: Path) -> None:
    finished_game(companion, ["Cy", "Dee"])
    page = companion.new_game({"players": ["Eve", "Fay"]})  # no dealer tapped: cut at the table
    camera = camera_on(companion, f"video:{video}", tmp_path)
    try:
        wait_for(lambda: camera.status()["state"] == "ended" and len(companion.state(page)["plays"]) == 2,
                 timeout=120)
        assert companion.latest_game() == page and len(companion.games()) == 2
        state = companion.state(page)
        assert state["starter"] == "JH" and plays(state) == [("B", "5S"), ("A", "TS")]
        assert camera.status()["started"] is None
    finally:
        camera.close()


def test_a_game_is_started_only_when_none_is_in_progress(companion: Companion) -> None:
    """Looked at and started at once: a game started on the page the moment before the camera
    starts one is never hidden behind it."""
    first = companion.new_game_if_none_on({"players": ["Ann", "Bob"]})
    assert first is not None and companion.latest_game() == first
    assert companion.new_game_if_none_on({"players": ["Ann", "Bob"]}) is None  # first is in progress
    page = companion.new_game({"players": ["Eve", "Fay"]})
    assert companion.new_game_if_none_on({"players": ["Ann", "Bob"]}) is None
    assert companion.latest_game() == page
    over = finished_game(companion, ["Cy", "Dee"])
    after = companion.new_game_if_none_on({"players": ["Cy", "Dee"]})
    assert after is not None and after > over


def test_the_last_games_cards_must_be_cleared_before_a_deal_starts_a_game(companion: Companion,
                                                                          tmp_path: Path) -> None:
    """A game over, its cards still lying: a crib turned up after the winning peg starts
    nothing; once the table is cleared, the next starter does."""
    finished_game(companion, ["Cy", "Dee"])
    script = Script()
    script.table.lay("5S", 80, 60)
    script.table.lay("TS", 80, 300)
    script.still(12)
    script.lay("2D", 320, 150)  # a card turned up beside the last game's
    camera = camera_on(companion, "scripted:0", tmp_path, make_source=lambda: ScriptedSource(script),
                       reader=patch_reader, backoff=(0.01, 0.05))
    try:
        wait_for(lambda: not script.frames)
        wait_for(lambda: "once it is cleared" in (camera.status()["expect"] or ""))
        assert len(companion.games()) == 1
        script.table = DrawnTable()  # the table swept
        script.still(12)
        wait_for(lambda: not script.frames)
        waiting = "the first card turned up starts a game of Cy v Dee"
        wait_for(lambda: waiting in (camera.status()["expect"] or ""))
        assert len(companion.games()) == 1
        script.lay("7C", 320, 150)  # the next deal's starter
        wait_for(lambda: len(companion.games()) == 2)
        game = companion.latest_game()
        assert companion.state(game)["phase"] == "cut"  # no dealer: the table will say
        assert camera.status()["started"]["game"] == game
    finally:
        script.finished = True
        camera.close()


def test_the_demo_never_starts_a_game(tmp_path: Path, video: Path) -> None:
    """crib serve --demo --camera: a game started on the page pauses the demo; once it is over,
    the video's next deal goes into the demo's next pass, never into a game of the camera's."""
    config = ServeConfig(data_dir=tmp_path / "data", demo=True, camera=f"video:{video}", leds="none")
    companion = Companion.build(config)
    try:
        camera = start_camera(config, companion, realtime=False)
        wait_for(lambda: companion.latest_game() is not None)
        page = finished_game(companion, ["Eve", "Fay"])  # started on the page and played out
        loop = (len(CARDS) + 1) * 12
        seen = camera.followed
        wait_for(lambda: camera.followed >= seen + 3 * loop, timeout=120)  # the video, three times more
        for game in companion.games():
            events = companion.events(game["id"])
            assert game["id"] == page or (events and events[0]["source"] == "demo"), (game, events[:2])
        assert camera.status()["started"] is None
    finally:
        companion.close()


def test_a_game_started_on_the_new_tab_takes_the_cameras_deal_over(companion: Companion,
                                                                   tmp_path: Path) -> None:
    """The players named on the New tab (the dealer cut at the table) after the camera started a
    game at the starter: the table is read into the page's game, the dealer found as before."""
    script = Script()
    script.still(12)
    script.lay("7C", 320, 150)  # the starter: the camera starts a game of Ann v Bob
    camera = camera_on(companion, "scripted:0", tmp_path, make_source=lambda: ScriptedSource(script),
                       reader=patch_reader, backoff=(0.01, 0.05))
    try:
        wait_for(lambda: companion.latest_game() is not None and camera.status()["started"] is not None)
        started = companion.latest_game()
        wait_for(lambda: "the starter" in (camera.status()["last"] or {}).get("say", ""))
        page = companion.new_game({"players": ["Eve", "Fay"]})  # from the New tab, no dealer
        script.lay("5S", 80, 60)  # Fay (top) lays first: Eve dealt
        script.lay("TS", 80, 300)
        script.still(30)  # the table read afresh into the page's game: its reading comes a little later
        wait_for(lambda: len(companion.state(page)["plays"]) == 2)
        state = companion.state(page)
        assert state["dealer"] == "A" and state["starter"] == "7C"
        assert plays(state) == [("B", "5S"), ("A", "TS")]
        assert companion.state(started)["phase"] == "cut"  # the camera's game got nothing more
        assert camera.status()["started"] is None  # the page's game is followed now
    finally:
        script.finished = True
        camera.close()


def test_the_watch_says_its_players_once_not_on_every_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words of a watch are asked after every frame (told to the page when they change):
    the sides in them are worked out once, when the watch begins."""
    import numpy as np

    from companion import dealwatch
    from vision.track import Tracker, Zones

    said: list[dict[str, Any]] = []
    words = dealwatch.players_words
    monkeypatch.setattr(dealwatch, "players_words", lambda settings: said.append(settings) or words(settings))
    watch = dealwatch.DealWatch(Tracker(Zones.default(2), reader=lambda image: ([], [])),
                                {"players": ["Cy", "Dee"]})
    table = np.full((360, 640, 3), 60, np.uint8)
    for number in range(20):
        assert watch.feed(table, number) is None
        assert watch.words().endswith("starts a game of Cy v Dee")
    assert watch.learnt  # the empty table was learnt: the words went on past the first kind
    assert said == [{"players": ["Cy", "Dee"]}]
