"""The board layout: numbering, streets, skunk lines, wiring and the JSON the page draws from."""

from __future__ import annotations

import itertools
import json
import math

import pytest

from cribbage.game import settings
from cribbage.game.settings import skunk_lines
from firmware.layout import BoardLayout, seat_track

BOARDS = list(itertools.product((2, 3), (1, 2), ("snake", "per-track")))


@pytest.mark.parametrize(("tracks", "laps", "wiring"), BOARDS)
def test_every_hole_has_its_own_led_and_position(tracks: int, laps: int, wiring: str) -> None:
    board = BoardLayout.standard(tracks=tracks, laps=laps, wiring=wiring)  # type: ignore[arg-type]
    per_track = 120 // laps + 2
    assert board.led_count == tracks * per_track
    assert sorted(h.led for h in board.holes) == list(range(board.led_count))
    positions = {(round(h.x, 3), round(h.y, 3)) for h in board.holes}
    assert len(positions) == board.led_count
    radius = board.geometry.hole_diameter / 2
    for h in board.holes:
        assert radius < h.x < board.width - radius and radius < h.y < board.height - radius
    # holes of one track are a path: consecutive holes one pitch apart along a row
    for t in range(tracks):
        for n in range(per_track - 1):
            a, b = board.hole(t, n), board.hole(t, n + 1)
            if a.row == b.row:
                assert math.isclose(math.dist((a.x, a.y), (b.x, b.y)), board.geometry.pitch)


@pytest.mark.parametrize(("tracks", "laps"), [(2, 1), (3, 1), (2, 2), (3, 2)])
def test_snake_wiring_steps_to_a_neighbour(tracks: int, laps: int) -> None:
    board = BoardLayout.standard(tracks=tracks, laps=laps, wiring="snake")
    by_led = sorted(board.holes, key=lambda h: h.led)
    for a, b in itertools.pairwise(by_led):
        if a.row == b.row:
            assert math.isclose(abs(a.x - b.x), board.geometry.pitch)
        else:  # the strip turns at the end of a row onto the next row down, same end
            assert b.row == a.row + 1 and abs(a.x - b.x) <= board.geometry.pitch + 1e-9


def test_per_track_wiring_runs_start_to_game_hole() -> None:
    board = BoardLayout.standard(tracks=3, wiring="per-track")
    assert [(s.first, s.count) for s in board.strips] == [(0, 122), (122, 122), (244, 122)]
    assert board.hole(1, 0).led == 122 and board.hole(2, 121).led == 365
    assert {h.strip for h in board.holes if h.track == 2} == {2}


def test_numbering_streets_and_scores() -> None:
    board = BoardLayout.standard()
    assert board.hole(0, 0).kind == "start" and board.hole(0, 121).kind == "game"
    assert [board.hole(0, n).street for n in (1, 5, 6, 120)] == [1, 1, 2, 24]
    assert len(board.streets) == 2 * 24
    assert board.hole_for_score(0) == 0 and board.hole_for_score(121) == 121
    short = BoardLayout.standard(laps=2)
    assert [short.hole_for_score(s) for s in (60, 61, 75, 120, 121)] == [60, 1, 15, 60, 61]
    assert [short.lap_for_score(s) for s in (60, 61, 121)] == [1, 2, 2]
    with pytest.raises(ValueError, match="over"):
        board.hole_for_score(122)
    with pytest.raises(ValueError, match="negative"):
        board.hole_for_score(-1)
    with pytest.raises(KeyError):
        board.hole(0, 122)
    assert seat_track("B") == 1
    with pytest.raises(ValueError):
        seat_track("D")


def test_skunk_lines_follow_the_rules() -> None:
    assert [s.after for s in BoardLayout.standard().skunk_lines] == [60, 90]
    assert [(s.after, s.hole) for s in BoardLayout.standard(laps=2, target=61).skunk_lines] == [
        (30, 30)
    ]
    # the 121-point line at 90 on a 61-hole board is hole 30 of lap 2
    line90 = BoardLayout.standard(laps=2).skunk_lines[1]
    assert (line90.after, line90.hole, line90.lap) == (90, 30, 2)
    board = BoardLayout.standard(tracks=3)
    assert [board.skunked(s) for s in (59, 60, 61, 90, 91)] == [2, 2, 1, 1, 0]
    for line in board.skunk_lines:
        assert len(line.segments) == 3
        for t, (x1, y1, x2, y2) in enumerate(line.segments):
            a, b = board.hole(t, line.hole), board.hole(t, line.hole + 1)
            assert math.isclose((x1 + x2) / 2, (a.x + b.x) / 2)
            assert math.isclose((y1 + y2) / 2, (a.y + b.y) / 2)


@pytest.mark.parametrize("target", [121, 61])
def test_the_board_draws_the_games_skunk_lines(target: int) -> None:
    """A loser below the game's line is skunked; the board's line follows the hole before it."""
    for laps in (1, 2):
        board = BoardLayout.standard(laps=laps, target=target)
        lines = sorted(below for below in skunk_lines(target) if below is not None)
        assert [s.after + 1 for s in board.skunk_lines] == lines
        for below in lines:
            assert board.skunked(below - 1) > board.skunked(below)


def test_the_board_reads_the_skunk_lines_from_the_games_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(settings.SKUNK_LINES, 121, (101, 51))
    monkeypatch.setitem(settings.SKUNK_LINES, 61, (41, None))
    assert [s.after for s in BoardLayout.standard().skunk_lines] == [50, 100]
    assert [s.after for s in BoardLayout.standard(laps=2, target=61).skunk_lines] == [40]


def test_bad_boards_are_refused() -> None:
    for kwargs in ({"tracks": 1}, {"laps": 3}, {"wiring": "star"}, {"target": 100}):
        with pytest.raises(ValueError):
            BoardLayout.standard(**kwargs)  # type: ignore[arg-type]


def test_json_holds_what_the_page_draws() -> None:
    board = BoardLayout.standard(tracks=3, laps=1)
    data = json.loads(board.to_json())
    assert data["leds"] == 366 and data["tracks"] == 3 and data["seats"] == ["A", "B", "C"]
    assert set(data["outline"]) == {"width", "height", "corner_radius"}
    hole = data["holes"][5]
    assert set(hole) >= {"track", "hole", "kind", "x", "y", "led", "street"}
    assert len(data["streets"]) == 72 and data["streets"][0]["holes"] == [1, 5]
    assert [s["after"] for s in data["skunk_lines"]] == [60, 90]
    assert len(data["skunk_lines"][0]["segments"]) == 3
