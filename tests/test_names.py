"""One list of players' names for the demo and ``crib track`` (issue 37: the demo's names
differed from crib track's): both take :data:`companion.names.PLAYER_NAMES`."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion import demo
from companion.cli import main
from companion.names import PLAYER_NAMES, default_players
from vision.synth.compose import drawn_table


def test_the_demo_plays_the_first_two_names() -> None:
    assert demo.NAMES == PLAYER_NAMES[:2] == tuple(default_players(2))
    assert demo.SETTINGS["players"] == list(PLAYER_NAMES[:2])
    assert demo.VideoDemo.NAMES == demo.DemoDealer.NAMES == demo.NAMES


@pytest.mark.parametrize(("seats", "names"), [(-1, []), (0, []), (2, ["Ann", "Bob"]),
                                              (4, list(PLAYER_NAMES)), (10**6, list(PLAYER_NAMES))])
def test_default_players_never_fails(seats: int, names: list[str]) -> None:
    assert default_players(seats) == names


@pytest.mark.parametrize(("variant", "seats"), [("six-card", 2), ("three-player", 3)])
def test_crib_track_names_the_players_as_the_demo_does(tmp_path: Path, variant: str, seats: int,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    empty = drawn_table([], width=130, seed=3, table="wood_dark")
    for n in range(3):
        cv2.imwrite(str(folder / f"f{n}.jpg"), empty)
    assert main(["track", str(folder), "--variant", variant, "--json"]) == 0
    state = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["state"]
    assert [p["name"] for p in state["players"]] == default_players(seats)
    assert [p["name"] for p in state["players"]][:2] == list(demo.NAMES)
