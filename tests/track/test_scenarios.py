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

import pytest

from companion.cli import main
from vision.synth.golden import event_keys, golden_video

pytestmark = pytest.mark.slow


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
    assert event_keys(result["events"]) == event_keys(truth["legal_events"])
    assert result["state"]["scores"] == truth["scores"]
    assert result["flagged"] == []
    if scenario == "whole":
        assert truth["deals"] >= 8 and max(truth["scores"].values()) >= 121
        assert result["state"]["winner"] is not None
