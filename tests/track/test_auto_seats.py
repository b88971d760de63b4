"""Seats found from the cards (``--zones auto``): the geometry, the commands, the turned videos.

The geometry is checked on index directions made up for each edge and each way a card may lie;
``crib track --zones auto`` on a short drawn deal turned a quarter; ``crib serve``'s camera
finds the seats where no zones were saved, and zones saved on the page still win; and the
golden videos turned a quarter and a half, and those of three and four players, give every event
and score exactly, the seats settled by the first card of the play (slow: rendered once, cached).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.camera import CameraService
from companion.cli import main
from companion.service import Companion
from cribbage.gamelog import GameStore
from tests.track.test_camera_service import TWO, idle_camera
from vision.synth.compose import drawn_table
from vision.synth.golden import event_keys, golden_video
from vision.synth.turn import turn_frame, turn_rect
from vision.track import Zones
from vision.track.seats import EDGES, HOME, Seats, edge_of, turn_for, turned

SIZES = [(1280, 720), (720, 1280)]
# (edge, a card's centre there as fractions of the frame, the axis of its index's down)
LAID = [("bottom", (0.45, 0.82), (0.0, 1.0)), ("top", (0.6, 0.18), (0.0, 1.0)),
        ("left", (0.12, 0.4), (1.0, 0.0)), ("right", (0.88, 0.55), (1.0, 0.0))]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("edge, at, axis", LAID)
def test_a_card_says_its_players_edge_whichever_way_its_index_points(
        edge: str, at: tuple[float, float], axis: tuple[float, float], size: tuple[int, int]) -> None:
    """A card's two indices point opposite ways (its face is printed both ways up): the axis says
    the pair of edges, the place the edge; laid a little askew it still says so."""
    x, y = at[0] * size[0], at[1] * size[1]
    for sign in (1, -1):
        for skew in (0.0, 0.2, -0.3):
            down = (sign * (axis[0] + skew * axis[1]), sign * (axis[1] + skew * axis[0]))
            assert edge_of((x, y), down, size) == edge


def test_a_card_that_says_nothing_sure_settles_nothing() -> None:
    assert edge_of((640, 600), None, (1280, 720)) is None  # no index read
    assert edge_of((640, 600), (0.71, 0.7), (1280, 720)) is None  # laid along the diagonal
    assert edge_of((640, 362), (0.0, 1.0), (1280, 720)) is None  # on the middle line
    seats = Seats(2)
    assert seats.settle("B", (640, 600), None, (1280, 720)) is None and not seats.settled
    assert seats.settle("E", (640, 600), (0.0, 1.0), (1280, 720)) is None and not seats.settled
    with pytest.raises(ValueError):
        Seats(5)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_the_pones_first_card_sets_every_seat(players: int, turn: int) -> None:
    """For each dealer, the pone's first card, laid at the edge the table turned ``turn``
    quarters puts it, finds that turn; every seat's zone is then the protocol's zone turned so,
    as a camera turned so films it (the turned golden videos' truth)."""
    letters = list(HOME[players])
    for d in range(players):  # each seat deals in turn: the next is the pone
        pone = letters[(d + 1) % players]
        edge = EDGES[(EDGES.index(HOME[players][pone]) + turn) % 4]
        _, at, axis = next(item for item in LAID if item[0] == edge)
        seats = Seats(players)
        assert seats.settle(pone, (at[0] * 1280, at[1] * 720), axis, (1280, 720), frame=40) == turn
        assert seats.settled and seats.by == (pone, edge) and seats.frame == 40
        assert seats.edge(pone) == edge
        for letter, rect in Zones.default(players).seats:
            assert seats.zones.seat(letter) == pytest.approx(turn_rect(rect, turn))
        assert seats.zones.centre == pytest.approx(turn_rect(Zones.default(players).centre, turn))


def test_play_goes_clockwise_round_the_edges() -> None:
    """Bottom, left, top, right: a seat's left-hand neighbour plays after it."""
    seats = Seats(4)
    seats.settle("B", (600, 80), (0.0, -1.0), (1280, 720))  # B at the top
    assert [seats.edge(s) for s in "ABCD"] == ["left", "top", "right", "bottom"]
    assert turn_for(4, "A", "bottom") == 0 and turned(Zones.default(4), 4) == Zones.default(4)
    seats.unsettle()
    assert not seats.settled and seats.turn == 1 and seats.to_json()["by"] is None


# --- crib track --zones auto -------------------------------------------------------------------

# the starter, then B (top edge, cards upside down) and A (bottom edge) lay in turn; filmed by a
# camera turned a quarter clockwise: A sits at the left edge, B at the right
CARDS = [("JH", 560, 360, 0), ("5S", 300, 150, 180), ("TS", 300, 580, 3), ("5H", 345, 148, 178)]


@pytest.fixture(scope="module")
def turned_video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("auto") / "deal.mp4"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10, (720, 1280))
    for k in range(len(CARDS) + 1):
        img = turn_frame(drawn_table(CARDS[:k], width=130, seed=3, table="wood_dark"), 1)
        for _ in range(12):
            out.write(img)
    out.release()
    return path


def track_json(args: list[str], status: int = 0) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["track", *args, "--json"]) == status
    return json.loads(out.getvalue().strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_crib_track_zones_auto_finds_the_seats_of_a_camera_turned_a_quarter(turned_video: Path) -> None:
    result = track_json([str(turned_video), "--dealer", "A", "--zones", "auto"])
    assert [(e["type"], e.get("seat"), e["card"]) for e in result["events"]] == [
        ("starter", None, "JH"), ("play", "B", "5S"), ("play", "A", "TS"), ("play", "B", "5H")]
    assert result["state"]["scores"] == {"A": 4, "B": 0} and result["flagged"] == []
    seats = result["seats"]
    assert seats["settled"] and seats["edges"] == {"A": "left", "B": "right"}
    assert seats["by"] == "B" and seats["frame"] == result["events"][1]["frame"]


def test_without_auto_the_turned_table_is_not_followed(turned_video: Path) -> None:
    """The protocol's fixed zones (A at the bottom) cannot follow the players at the side edges:
    what auto is for."""
    result = track_json([str(turned_video), "--dealer", "A"], status=1)  # 1: flags left unanswered
    assert "seats" not in result and result["flagged"]


@pytest.mark.parametrize("value", ["autoo", "", "{}"])
def test_a_bad_zones_value_is_one_line_and_exit_2(value: str, turned_video: Path) -> None:
    argv = ["track", str(turned_video), "--zones", value]
    run = subprocess.run([sys.executable, "-m", "companion.cli", *argv], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 2, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


# --- crib serve's camera -------------------------------------------------------------------------

@pytest.fixture
def companion(tmp_path: Path) -> Any:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    game = companion.new_game({"players": ["Ann", "Bob"]})
    companion.apply(game, {"type": "dealer", "seat": "A"})
    yield companion
    companion.close()


def test_serve_finds_the_seats_where_no_zones_were_saved(companion: Any, tmp_path: Path) -> None:
    camera = idle_camera(companion, tmp_path / "data")
    assert isinstance(camera._tracker.seats, Seats) and not camera._tracker.seats.settled
    assert camera.status()["zones"] == Zones.default(2).to_json()  # the guess until a card is laid
    assert camera.status()["seats"]["settled"] is False  # the page says the seats are still to find


def test_zones_saved_win_over_the_cards_and_auto_over_the_saved_file(companion: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "zones.json").write_text(json.dumps(TWO))
    camera = idle_camera(companion, data)
    assert camera._tracker.seats is None and camera.status()["zones"] == TWO
    assert camera.status()["seats"] is None
    camera = idle_camera(companion, data, zones_path=Path("auto"))
    assert isinstance(camera._tracker.seats, Seats)
    assert camera.set_zones(TWO)["in_use"] is True  # drawn on the page: the page's zones win
    assert camera._tracker.seats is None and camera.status()["zones"] == TWO


def test_serve_zones_auto_on_the_command_line(tmp_path: Path) -> None:
    """``crib serve --zones auto`` is not a file to check; a bad file still stops it at start."""
    run = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--data", str(tmp_path),
                          "--camera", "video:/nowhere.mp4", "--zones", "nowhere.json"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "nowhere.json" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert isinstance(CameraService.zones_file(tmp_path), Path)


# --- the golden videos, turned -------------------------------------------------------------------

EDGES_OF = {"quarter": {"A": "left", "B": "right"}, "half": {"A": "top", "B": "bottom"},
            "three": {"A": "bottom", "B": "top", "C": "top"},
            "four": {"A": "bottom", "B": "left", "C": "top", "D": "right"}}


@pytest.mark.slow
@pytest.mark.parametrize("scenario", list(EDGES_OF))
def test_every_event_and_score_is_exact_with_the_seats_found_from_the_cards(scenario: str) -> None:
    path, truth = golden_video(scenario=scenario, progress=True)
    settings = truth["settings"]
    result = track_json([str(path), "--players", ",".join(settings["players"]), "--variant",
                         settings["variant"], "--dealer", truth["dealer"], "--zones", "auto"])
    assert event_keys(result["events"]) == event_keys(truth["legal_events"])
    assert result["state"]["scores"] == truth["scores"]
    assert result["flagged"] == []
    first_play = next(e for e in result["events"] if e["type"] == "play")
    assert result["seats"]["edges"] == EDGES_OF[scenario]
    assert result["seats"]["frame"] == first_play["frame"]  # settled by the first card of the play
    assert result["seats"]["by"] == first_play["seat"]
