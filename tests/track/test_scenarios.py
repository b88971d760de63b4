"""Whole games and every table size through ``crib track``: every event and the final scores exact.

Rendered deal videos (:mod:`vision.synth.golden` scenarios, cached after the first run) of a
three-player game, a four-player partnership game, the five-card game (its closing go is seen
on no card: the camera infers it from the hand turned up for the show) and a whole two-player
game to 121 (nine deals), each with the default zones of its table size, decks the reader
never trained on and the crib spread overlapping by a third.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest

from companion.cli import main
from vision.synth.golden import golden_video

pytestmark = pytest.mark.slow


def key(e: dict[str, Any]) -> tuple[Any, ...]:
    if e["type"] in ("show", "go"):
        return (e["type"], e["seat"], None)  # the camera counts the cards the seat laid
    return (e["type"], e.get("seat"), e.get("card") or tuple(sorted(e["cards"])))


@pytest.mark.parametrize("scenario", ["three", "four", "five-card", "whole"])
def test_every_event_and_score_is_exact(scenario: str) -> None:
    path, truth = golden_video(scenario=scenario, progress=True)
    settings = truth["settings"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["track", str(path), "--players", ",".join(settings["players"]),
                       "--variant", settings["variant"], "--dealer", truth["dealer"], "--json"])
    assert status == 0
    result = json.loads(out.getvalue().strip().splitlines()[-1])
    want = [key(e) for e in truth["legal_events"] if e["type"] != "dealer"]
    assert [key(e) for e in result["events"]] == want
    assert result["state"]["scores"] == truth["scores"]
    assert result["flagged"] == []
    if scenario == "whole":
        assert truth["deals"] >= 8 and max(truth["scores"].values()) >= 121
        assert result["state"]["winner"] is not None
