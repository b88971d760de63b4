"""``crib serve --demo --camera video:...``: each pass of the demo video replaces the last pass's
game in the game log itself (GameStore.delete_demo_game), not only in History, and a new run
replaces an earlier run's demo games, finished or not; games started on the page stay."""

from __future__ import annotations

from pathlib import Path

from companion.service import Companion, ServeConfig, start_camera
from cribbage.gamelog import DEMO_SOURCE, GameStore
from tests.track.table import patch_reader
from tests.web.test_web_demo_video_aside import Reel, starter


def serve_demo(path: Path) -> tuple[Companion, Reel]:
    companion = Companion(GameStore(path / "games.sqlite3"), leds="none")
    reel = Reel()
    config = ServeConfig(data_dir=path, demo=True, camera="video:drawn")
    start_camera(config, companion, make_source=reel.source, reader=patch_reader, realtime=False,
                 backoff=(0.01, 0.05))
    return companion, reel


def stored(companion: Companion) -> list[int]:
    """Every game in the log, newest first (History's filter aside)."""
    return [int(g["id"]) for g in companion.store.games()]


def test_the_demo_passes_do_not_pile_up_in_the_log(tmp_path: Path) -> None:
    companion, reel = serve_demo(tmp_path)
    try:
        for _ in range(3):
            reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
        assert stored(companion) == [companion.latest_game()]
        assert companion.state(companion.latest_game())["match"]["games"] == 0
    finally:
        companion.close()


def test_a_game_of_the_page_stays_while_the_demo_replaces_its_own(tmp_path: Path) -> None:
    companion, reel = serve_demo(tmp_path)
    try:
        reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
        demo_game = companion.latest_game()
        real = companion.new_game({"players": ["Ann", "Cy"]})
        companion.apply(real, {"type": "dealer", "seat": "A"}, source="page")
        reel.play()  # paused: the demo's game of that pass stays as it is
        assert stored(companion) == [real, demo_game]
        companion.apply(real, {"type": "adjust", "seat": "A", "points": 121, "reason": "test"},
                        source="page")
        reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
        latest = companion.latest_game()
        assert stored(companion) == [latest, real]  # the paused demo game went, the page's stays
    finally:
        companion.close()


def test_a_new_run_replaces_an_earlier_runs_demo_games_even_unfinished(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        page = store.new_game({"players": ["Ann", "Cy"]})
        store.apply(page, {"type": "adjust", "seat": "A", "points": 121, "reason": "t"}, source="page")
        earlier = []
        for _ in range(2):  # an earlier run stopped mid-pass: its newest game is unfinished
            game = store.new_game({"players": ["Ann", "Bob"]})
            store.apply(game, {"type": "dealer", "seat": "A"}, source=DEMO_SOURCE)
            earlier.append(game)
    companion, reel = serve_demo(tmp_path)
    try:
        first = companion.latest_game()
        assert first not in earlier and first is not None
        assert stored(companion) == [first, page]
        assert [g["id"] for g in companion.games()] == [first, page]
        reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
        assert starter(companion, first) == "7C"  # the camera reads into the new run's game
    finally:
        companion.close()


def test_the_camera_status_asked_as_a_pass_replaces_the_last_pass_s_game(tmp_path: Path) -> None:
    """The Camera tab asks GET /api/camera at any moment: asked just as the next pass's game
    replaced the last pass's (deleted), before the tracker's next frame, the status answers
    (the tracker paused a moment), never "there is no game N"."""
    companion, reel = serve_demo(tmp_path)
    camera = companion.camera
    assert camera is not None
    answers: list[tuple[object, list[int]]] = []  # (status or error, the games in the log then)

    def ask(topic: str, data: dict[str, object]) -> None:
        if topic == "games":  # a page asking as a game is started or deleted
            try:
                answers.append((camera.status(), stored(companion)))
            except Exception as exc:
                answers.append((exc, stored(companion)))

    try:
        reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
        companion.add_listener(ask)
        reel.play(lambda: starter(companion, companion.latest_game()) == "7C")
        assert answers, "no game was started or deleted"
        assert [a for a, _ in answers if not isinstance(a, dict)] == []
        gone = [a for a, games in answers if isinstance(a, dict) and a["game"] not in games]
        assert gone and all(a["tracker"] == "paused" for a in gone)  # the window was met
        assert camera.status()["game"] == companion.latest_game()
    finally:
        companion.close()
