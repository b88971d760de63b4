"""The camera in the running companion: a camera lost mid-deal, a card misread and corrected."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.camera import CameraService
from companion.service import Companion
from companion.tracking import CropFolder
from cribbage.errors import CribbageError
from cribbage.gamelog import GameStore
from tests.track.table import DrawnTable, code, patch_reader
from vision.camera import CameraError, Frame
from vision.track import Zones, ZonesError


class Script:
    """The table as the camera would film it: frames drawn as the test lays cards; the camera
    can be unplugged (``down``) and plugged back."""

    def __init__(self) -> None:
        self.table = DrawnTable()
        self.frames: list[np.ndarray] = []
        self.down = False
        self.fail_at: int | None = None  # unplugged after serving this many frames
        self.served = 0
        self.opened = 0
        self.finished = False  # the recording is over (until then the camera waits for frames)

    def still(self, n: int = 8) -> None:
        self.frames += [self.table.frame() for _ in range(n)]

    def lay(self, card: str, x: int, y: int, blue: int | None = None) -> None:
        for hy in (330, 300, y):
            self.frames.append(self.table.frame(hand=(x, hy)))
        self.table.lay(card, x, y, blue=blue)
        self.frames.append(self.table.frame(hand=(x, 330)))
        self.still()


class ScriptedSource:
    """The script's frames, each read once (a recording, so the capture hands every frame to the
    tracker), failing where the script unplugs the camera, waiting while the script has no
    frame yet."""

    live = False
    fps = 10.0

    def __init__(self, script: Script) -> None:
        self.script = script
        self.spec = "scripted:0"
        self.number = 0

    def open(self) -> None:
        if self.script.down:
            raise CameraError("no camera at scripted:0")
        self.script.opened += 1

    def read(self) -> Frame | None:
        s = self.script
        if s.fail_at is not None and s.served == s.fail_at:
            s.fail_at, s.down = None, True
            raise CameraError("camera scripted:0 stopped giving frames (unplugged?)")
        deadline = time.monotonic() + 10
        while not s.frames and not s.finished and time.monotonic() < deadline:
            time.sleep(0.01)  # the players have not laid the next card yet
        if not s.frames:
            return None
        image = s.frames.pop(0)
        s.served += 1
        self.number += 1
        return Frame(image, self.number, self.number / 10)

    def close(self) -> None:
        pass


@pytest.fixture
def companion(tmp_path: Path) -> Any:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    game = companion.new_game({"players": ["Ann", "Bob"]})
    companion.apply(game, {"type": "dealer", "seat": "A"})
    yield companion
    companion.close()


def follow(companion: Any, script: Script, tmp_path: Path) -> tuple[CameraService, list[dict[str, Any]]]:
    told: list[dict[str, Any]] = []
    camera = CameraService(companion, "scripted:0", tmp_path, make_source=lambda: ScriptedSource(script),
                           reader=patch_reader, realtime=False, backoff=(0.01, 0.05))
    companion.attach_camera(camera)
    companion.add_listener(lambda topic, data: told.append(data) if topic == "camera" else None)
    camera.start()
    return camera, told


def wait_for(what: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


def plays(companion: Any) -> list[tuple[str, str]]:
    state = companion.state(companion.latest_game())
    return [(p["seat"], p["card"]) for p in state["plays"]]


def test_a_camera_lost_mid_deal_is_shown_retried_and_nothing_is_pegged_twice(companion: Any,
                                                                               tmp_path: Path) -> None:
    script = Script()
    script.still()
    script.lay("7C", 320, 150)  # the starter, in the centre
    script.lay("5S", 80, 60)  # B leads (A deals)
    script.lay("TS", 80, 300)
    script.fail_at = len(script.frames) - 2  # unplugged once A's ten has been read
    camera, told = follow(companion, script, tmp_path)
    wait_for(lambda: script.down)
    wait_for(lambda: camera.status()["state"] == "lost")
    lost = camera.status()
    assert lost["error"] and lost["tracker"] == "paused"
    # the game goes on by hand meanwhile
    companion.apply(companion.latest_game(), {"type": "play", "seat": "B", "card": "2D"}, source="page")
    script.table.lay("2D", 130, 60)  # what was played by hand lies on the table too
    script.lay("4H", 130, 300)
    script.still(30)  # the whole table is read afresh, a window a frame
    script.down = False  # plugged back in
    script.finished = True
    wait_for(lambda: camera.status()["state"] in ("running", "ended") and not script.frames)
    wait_for(lambda: len(plays(companion)) == 4)
    assert plays(companion) == [("B", "5S"), ("A", "TS"), ("B", "2D"), ("A", "4H")]
    assert any("unplugged" in (s["error"] or "") for s in told if s["state"] == "lost")
    events = companion.events(companion.latest_game())
    sources = [(e["event"].get("card"), e["source"]) for e in events if e["event"]["type"] == "play"]
    assert sources == [("5S", "camera"), ("TS", "camera"), ("2D", "page"), ("4H", "camera")]
    camera.close()


def test_a_misread_card_is_corrected_from_the_page_and_the_camera_goes_on(companion: Any,
                                                                          tmp_path: Path) -> None:
    script = Script()
    script.still()
    script.lay("7C", 320, 150)
    script.lay("AC", 80, 60, blue=code("2C"))  # the ace of clubs, read as the two
    camera, _ = follow(companion, script, tmp_path)
    game = companion.latest_game()
    wait_for(lambda: plays(companion) == [("B", "2C")])
    [event] = [e for e in companion.events(game) if e["event"].get("card") == "2C"]
    assert event["event"]["seen"]["crop"].startswith("crops/")
    assert companion.camera_crop(event["event"]["seen"]["crop"].split("/")[1])[:2] == b"\xff\xd8"
    companion.apply(game, {"type": "correct", "event": event["id"],
                           "with": {"type": "play", "seat": "B", "card": "AC"}}, source="page")
    script.lay("9D", 80, 300)
    wait_for(lambda: len(plays(companion)) == 2)
    assert plays(companion) == [("B", "AC"), ("A", "9D")]
    assert companion.state(game)["count"] == 10
    script.finished = True
    camera.close()


def test_each_size_of_table_keeps_its_own_zones(companion: Any, tmp_path: Path) -> None:
    script = Script()
    script.still()
    camera, _ = follow(companion, script, tmp_path)
    wait_for(lambda: camera.status()["game"] == companion.latest_game())
    assert camera.status()["zones"]["players"] == 2
    seats2 = {"A": [0, 0.6, 1, 1], "B": [0, 0, 1, 0.4]}
    bottom = {"players": 2, "centre": [0.3, 0.3, 0.7, 0.7], "seats": seats2}
    companion.set_camera_zones(bottom)
    three = companion.new_game({"players": ["Ann", "Bob", "Cat"], "variant": "three-player"})
    script.still(6)
    wait_for(lambda: camera.status()["game"] == three)
    assert camera.status()["zones"]["players"] == 3  # the protocol's zones for three
    seats3 = {"A": [0, 0.5, 1, 1], "B": [0, 0, 0.4, 0.5], "C": [0.6, 0, 1, 0.5]}
    companion.set_camera_zones({"players": 3, "centre": [0.3, 0.35, 0.7, 0.65], "seats": seats3})
    assert (tmp_path / "zones-3.json").exists()
    assert json.loads((tmp_path / "zones.json").read_text())["centre"] == [0.3, 0.3, 0.7, 0.7]
    with pytest.raises(CribbageError):
        companion.set_camera_zones({"players": 3, "centre": [0.3, 0.35, 0.7, 0.65],
                                    "seats": {"A": [0, 0, 1, 1]}})
    assert camera.status()["zones"]["seats"]["B"] == [0, 0, 0.4, 0.5]
    script.finished = True
    camera.close()


def fickle_seven(companion: Any, tmp_path: Path) -> tuple[Script, CameraService]:
    """A camera started on a table where the seven of clubs is laid and read another way each time
    (7C, TC, 7S): a reading it flags."""
    names = iter(["7C", "TC", "7S"] * 20)

    def fickle(image: np.ndarray) -> Any:
        cards, doubts = patch_reader(image)
        return [type(c)(next(names), 0.9, c.center, c.size) if c.card == "7C" else c for c in cards], doubts

    script = Script()
    script.still()
    script.lay("7C", 320, 150)
    script.still(10)
    camera = CameraService(companion, "scripted:0", tmp_path, make_source=lambda: ScriptedSource(script),
                           reader=fickle, realtime=False)
    companion.attach_camera(camera)
    camera.start()
    return script, camera


def test_the_boards_next_button_accepts_the_oldest_flagged_reading(companion: Any, tmp_path: Path) -> None:
    script, camera = fickle_seven(companion, tmp_path)
    wait_for(lambda: camera.status()["flagged"])
    [flag] = camera.status()["flagged"]
    assert set(flag["likely"]) == {"7C", "TC", "7S"}
    assert camera.status()["tracker"] == "waiting for a confirmation"
    # the follower's words reach the page: what it waits for, the flag said, its one-tap answers
    assert isinstance(camera.status()["expect"], str) and flag["say"]
    assert {"action": "dismiss"}.items() <= flag["choices"][-1].items()
    state = companion.press("next")
    assert state is not None and state["starter"] == flag["likely"][0]
    assert camera.status()["flagged"] == []
    script.finished = True
    camera.close()


def test_flag_numbers_are_never_another_games(companion: Any, tmp_path: Path) -> None:
    """Flag numbers began at 1 in every game, so an answer to game 1's flag #1 that came late
    settled game 2's flag #1. They now count on over every game of the run."""
    script, camera = fickle_seven(companion, tmp_path)
    try:
        wait_for(lambda: camera.status()["flagged"])
        [first] = camera.status()["flagged"]
        second_game = companion.new_game({"players": ["Ann", "Bob"]})
        companion.apply(second_game, {"type": "dealer", "seat": "A"})
        script.table = type(script.table)()  # a fresh table for the new game's deal
        script.still()
        script.lay("7C", 320, 150)
        script.still(10)
        wait_for(lambda: camera.status()["game"] == second_game and camera.status()["flagged"])
        [second] = camera.status()["flagged"]
        assert second["id"] > first["id"]
        with pytest.raises(KeyError):  # the late answer to game 1's flag settles nothing here
            companion.resolve_flag(first["id"], "accept")
        assert camera.status()["flagged"] == [second]
    finally:
        script.finished = True
        camera.close()


def test_a_pruned_crops_name_is_never_given_to_another_card(tmp_path: Path) -> None:
    """Crops were named by frame and seat (000412-A.jpg), which come again in every game: once
    pruned, the name went to another card's crop, and an old event showed it."""
    crops = CropFolder(tmp_path, keep=1)
    first = crops.save(np.full((20, 20, 3), 10, np.uint8), "000412-A")
    for k in range(60):  # pruned at the 50th
        crops.save(np.full((20, 20, 3), 200, np.uint8), f"{k:06d}-B")
    assert first is not None and crops.read(first.split("/")[1]) is None
    again = crops.save(np.full((20, 20, 3), 90, np.uint8), "000412-A")
    assert again is not None and again != first
    assert crops.read(first.split("/")[1]) is None  # the old event's crop: gone, not another card's


# --- zones: each size its own, the operator's file never written -----------------------------

TWO = {"players": 2, "centre": [0.3, 0.3, 0.7, 0.7], "seats": {"A": [0, 0.6, 1, 1], "B": [0, 0, 1, 0.4]}}
THREE = {"players": 3, "centre": [0.3, 0.35, 0.7, 0.65],
         "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0, 0.4, 0.5], "C": [0.6, 0, 1, 0.5]}}


def idle_camera(companion: Any, data: Path, **kwargs: Any) -> CameraService:
    """A camera service that is never started: its zones and answers, without frames."""
    script = Script()
    script.finished = True
    return CameraService(companion, "scripted:0", data, make_source=lambda: ScriptedSource(script),
                         reader=patch_reader, realtime=False, **kwargs)


def test_zones_for_another_size_are_kept_for_it_and_never_used_for_this_game(companion: Any,
                                                                              tmp_path: Path) -> None:
    """A 3-player zones saved from the page during a 2-player game used to be applied at once
    (21 flags in 45 s, "C's zone" among them): they are kept for a table of three."""
    camera = idle_camera(companion, tmp_path)
    companion.attach_camera(camera)
    assert companion.set_camera_zones(THREE) == {**THREE, "in_use": False}
    assert camera.status()["zones"] == Zones.default(2).to_json()
    assert camera._tracker.zones.players == 2
    assert json.loads((tmp_path / "zones-3.json").read_text())["seats"]["B"] == [0, 0, 0.4, 0.5]
    assert not (tmp_path / "zones.json").exists()
    assert companion.set_camera_zones(TWO) == {**TWO, "in_use": True}
    assert camera.status()["zones"] == TWO and camera._tracker.zones.players == 2
    # the next game of three gets the zones kept for it
    three = companion.new_game({"players": ["Ann", "Bob", "Cat"], "variant": "three-player"})
    camera._follower_for(three)
    assert camera.status()["zones"] == THREE


def test_a_zones_file_for_another_size_is_not_used(companion: Any, tmp_path: Path) -> None:
    (tmp_path / "zones.json").write_text(json.dumps(THREE))  # the 2-player file, holding three
    camera = idle_camera(companion, tmp_path)
    assert camera.status()["zones"] == Zones.default(2).to_json()


def test_the_page_never_writes_the_operators_zones_file(companion: Any, tmp_path: Path) -> None:
    """--zones FILE wins at every start; zones saved on the page win for the rest of the run and
    go to the data folder's file."""
    operator = tmp_path / "table.json"
    operator.write_text(json.dumps(TWO))
    written = operator.read_bytes()
    data = tmp_path / "data"
    data.mkdir()
    camera = idle_camera(companion, data, zones_path=operator)
    assert camera.status()["zones"] == TWO
    moved = {**TWO, "centre": [0.25, 0.3, 0.75, 0.7]}
    assert camera.set_zones(moved)["in_use"] is True
    assert camera.status()["zones"] == moved
    assert operator.read_bytes() == written
    assert json.loads((data / "zones.json").read_text()) == moved
    restarted = idle_camera(companion, data, zones_path=operator)
    assert restarted.status()["zones"] == TWO
    without = idle_camera(companion, data)  # a start without --zones: the page's saved zones
    assert without.status()["zones"] == moved


@pytest.mark.parametrize("content", [None, "{not json", '{"players": 2, "centre": "middle", "seats": {}}',
                                     json.dumps({**TWO, "centre": [0, 0, 1, 1]})])
def test_a_bad_operators_zones_file_stops_the_camera(companion: Any, tmp_path: Path,
                                                     content: str | None) -> None:
    path = tmp_path / "table.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ZonesError, match=r"table\.json"):
        idle_camera(companion, tmp_path / "data", zones_path=path)


def test_refused_zones_leave_the_zones_in_use(companion: Any, tmp_path: Path) -> None:
    camera = idle_camera(companion, tmp_path)
    for bad in ({**TWO, "centre": [0.05, 0.05, 0.95, 0.95]},  # 81% of the frame
                {**TWO, "centre": [0, 0, 1, 0.9]},  # 90%
                {**TWO, "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0.45, 1, 1]}},  # the same zone
                {**TWO, "seats": {"A": [0.35, 0.4, 0.65, 0.6], "B": [0, 0, 1, 0.4]}}):  # in the centre
        with pytest.raises(ZonesError):
            camera.set_zones(bad)
    assert camera.status()["zones"] == Zones.default(2).to_json()
    assert not (tmp_path / "zones.json").exists()


# --- the follower's words pass through; the seat reaches it -----------------------------------


class StubFollower:
    """The follower's contract (vision.track.follow): expect, last, a flag's words and choices,
    and resolve with a seat."""

    def __init__(self) -> None:
        self.answers: list[tuple[Any, ...]] = []

    def status(self) -> dict[str, Any]:
        return {"tracker": "watching", "expect": "Bob to play",
                "last": {"card": "QH", "say": "Q♥ played by Ann", "frame": 123},
                "flagged": [{"id": 1, "kind": "play", "say": "A card laid in the centre: whose is it?",
                             "choices": [{"label": "Ann's card", "action": "accept", "seat": "A"}]}]}

    def resolve(self, flag_id: int, action: str, card: str | None = None,
                seat: str | None = None) -> dict[str, Any]:
        self.answers.append((flag_id, action, card, seat))
        return {}


def test_status_passes_what_the_camera_expects_and_the_last_card_read(companion: Any,
                                                                       tmp_path: Path) -> None:
    camera = idle_camera(companion, tmp_path)
    assert camera.status()["expect"] is None and camera.status()["last"] is None  # no follower yet
    camera._follower = StubFollower()
    status = camera.status()
    assert status["expect"] == "Bob to play"
    assert status["last"] == {"card": "QH", "say": "Q♥ played by Ann", "frame": 123}
    assert status["flagged"][0]["choices"][0]["seat"] == "A"


def test_the_seat_reaches_the_follower(companion: Any, tmp_path: Path) -> None:
    camera = idle_camera(companion, tmp_path)
    companion.attach_camera(camera)
    stub = StubFollower()
    camera._follower = stub
    companion.resolve_flag(1, "accept", None, "A")
    companion.resolve_flag(1, "dismiss")
    assert stub.answers == [(1, "accept", None, "A"), (1, "dismiss", None, None)]


def test_a_move_by_hand_retells_the_page(companion: Any, tmp_path: Path) -> None:
    """What the camera expects follows the game: a card played by hand, while the camera sees
    nothing new, tells the page again (from the tracker's thread)."""
    script = Script()  # no frames yet: the camera has nothing to say of its own
    told: list[dict[str, Any]] = []
    camera = CameraService(companion, "scripted:0", tmp_path, make_source=lambda: ScriptedSource(script),
                           reader=patch_reader, realtime=False)
    companion.attach_camera(camera)
    companion.add_listener(lambda topic, data: told.append(data) if topic == "camera" else None)
    game = companion.latest_game()

    class Expecting(StubFollower):
        def status(self) -> dict[str, Any]:
            phase = companion.state(game)["phase"]
            return {**super().status(), "expect": "the starter" if phase == "deal" else "Bob to play"}

    camera._game_id, camera._follower = game, Expecting()
    camera.start()
    companion.apply(game, {"type": "starter", "card": "7C"}, source="page")
    wait_for(lambda: any(s["expect"] == "Bob to play" for s in told), timeout=5)
    script.finished = True
    camera.close()
