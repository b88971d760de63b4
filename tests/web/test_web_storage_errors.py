"""Storage trouble on the page: 507 when the SD card is full, 503 when it is read-only, failing
or the game log is damaged, each a JSON error naming the cause in plain words; never the 500
"the companion hit a bug"; the game as it was."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browserkit import start_server, stop_server
from webhelpers import Api

from companion.service import Companion
from cribbage.gamelog import GameStore
from tests.game.storagekit import DEAL_START, Opened, damage, played_log
from web import create_app

PLAY = {"type": "play", "seat": "A", "card": "JC"}


class Table:
    """A companion on a store whose connection the test can fill, fault or open read-only."""

    def __init__(self, tmp_path: Path, opened: Opened) -> None:
        self.opened = opened
        self.companion = Companion(GameStore(tmp_path / "games.sqlite3", connect=opened))
        app = create_app(self.companion, {"DATA_DIR": tmp_path, "TESTING": True})
        self.api = Api(app.test_client())


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with GameStore(tmp_path / "games.sqlite3") as store:
        game = store.new_game({"players": ["Ann", "Bob"]})
        store.apply_many(game, DEAL_START)
    made = Table(tmp_path, Opened())
    yield made
    made.companion.close()


def state_and_events(api: Api, game: int = 1) -> tuple[dict, list]:
    state = api.get(f"/api/games/{game}").get_json()["state"]
    events = api.get(f"/api/games/{game}/events").get_json()["events"]
    return state, events


def test_a_full_sd_card_is_507_and_nothing_is_recorded(table: Table) -> None:
    before = state_and_events(table.api)
    table.opened.fill_disk()
    for _ in range(1000):  # until a new game needs a page the file may not have
        response = table.api.post("/api/games", {"players": ["Annabel " * 3, "Bob " * 6]})
        if response.status_code != 201:
            break
    assert response.status_code == 507
    body = response.get_json()
    assert body["error"] == "the SD card is full: nothing was recorded" and body["cause"] == "full"
    assert state_and_events(table.api) == before
    table.opened.free_disk()
    assert table.api.event(1, PLAY)["state"]["events"] == 3


@pytest.mark.parametrize(("errno_", "status", "cause", "words"), [
    (28, 507, "full", "the SD card is full: the photo was not stored"),  # ENOSPC
    (30, 503, "read-only", "is read-only: the photo was not stored"),  # EROFS
    (5, 503, "io", "the SD card failed to write (I/O error): the photo was not stored"),  # EIO
])
def test_a_photo_on_a_full_or_failing_card_is_507_or_503(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errno_: int, status: int,
    cause: str, words: str,
) -> None:
    """A photo upload on a full SD card answered 500 "the companion hit a bug" (events answer
    507); nothing half-written is left in the photo folder."""
    import io
    import os

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (20, 120, 40)).save(buf, "PNG")
    real_write = Path.write_bytes

    def write_bytes(path: Path, data: bytes) -> int:
        if path.parent.name == "photos":
            real_write(path, data[: len(data) // 2])  # the card filled part way through
            raise OSError(errno_, os.strerror(errno_))
        return real_write(path, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    response = table.api.post("/api/photos", data={"photo": (io.BytesIO(buf.getvalue()), "h.png")},
                              content_type="multipart/form-data")
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert body["cause"] == cause and words in body["error"]
    folder = tmp_path / "photos"
    assert not folder.exists() or list(folder.iterdir()) == []
    monkeypatch.setattr(Path, "write_bytes", real_write)
    again = table.api.post("/api/photos", data={"photo": (io.BytesIO(buf.getvalue()), "h.png")},
                           content_type="multipart/form-data")
    assert again.status_code == 201 and len(list(folder.iterdir())) == 1


def test_an_io_error_is_503_and_the_game_is_unchanged(table: Table) -> None:
    before = state_and_events(table.api)
    assert table.opened.db is not None
    table.opened.db.fault = "INSERT INTO events"
    response = table.api.post("/api/games/1/events", PLAY)
    assert response.status_code == 503
    assert response.get_json()["cause"] == "io" and "I/O error" in response.get_json()["error"]
    table.opened.db.fault = None
    assert state_and_events(table.api) == before


def test_a_read_error_is_503_not_a_bug_nor_404(table: Table) -> None:
    assert table.opened.db is not None
    table.opened.db.fault = "SELECT"
    for path in ("/api/games", "/api/games/1", "/api/games/1/events"):
        response = table.api.get(path)
        assert response.status_code == 503, path
        assert response.get_json()["cause"] == "io"
    table.opened.db.fault = None


def test_a_read_only_game_log_is_503_and_still_shows_the_games(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        game = store.new_game({"players": ["Ann", "Bob"]})
        store.apply_many(game, DEAL_START)
    ro = Table(tmp_path, Opened(read_only=True))
    try:
        before = state_and_events(ro.api)
        assert before[0]["phase"] == "play"
        response = ro.api.post("/api/games/1/events", PLAY)
        assert response.status_code == 503
        body = response.get_json()
        assert body["cause"] == "read-only" and "nothing was recorded" in body["error"]
        assert ro.api.post("/api/games", {}).status_code == 503
        assert state_and_events(ro.api) == before
    finally:
        ro.companion.close()


def test_a_damaged_game_log_is_read_where_it_can_be_and_every_write_is_503(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    played_log(path, 30)
    damage(path)
    before = path.read_bytes()
    companion = Companion(GameStore(path))
    api = Api(create_app(companion, {"DATA_DIR": tmp_path, "TESTING": True}).test_client())
    try:
        assert len(api.get("/api/games").get_json()["games"]) == 30
        answers = {g: api.get(f"/api/games/{g}").status_code for g in range(1, 31)}
        assert set(answers.values()) == {200, 503}  # the damaged games say so, the others show
        bad = api.get(f"/api/games/{min(g for g, s in answers.items() if s == 503)}").get_json()
        assert bad["error"] == "the game log is damaged: run crib game recover"
        good = min(g for g, s in answers.items() if s == 200)
        newest = len(api.get(f"/api/games/{good}/events").get_json()["events"])  # the undo's aim
        for response in (api.post("/api/games", {}), api.post(f"/api/games/{good}/events",
                                                              {"type": "undo", "expect": newest})):
            assert response.status_code == 503
            assert response.get_json() == {"error": "the game log is damaged: run crib game recover",
                                           "status": 503, "cause": "damaged"}
    finally:
        companion.close()
    assert path.read_bytes() == before


def test_crib_serve_on_a_damaged_log_says_so_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    played_log(data / "games.sqlite3", 30)
    damage(data / "games.sqlite3")
    proc, url = start_server(data, "--leds", "none")
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline(), proc.stdout.readline()]
        with urllib.request.urlopen(url + "api/games", timeout=10) as response:
            assert len(json.loads(response.read())["games"]) == 30
    finally:
        stop_server(proc)
    said = [line for line in lines if "damaged" in line]
    assert len(said) == 1
    assert f"{data / 'games.sqlite3'} is damaged" in said[0]
    assert "run crib game recover" in said[0]
