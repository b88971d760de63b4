"""The golden deal videos through ``crib track``: every event and score exact, each card on time.

Two whole deals (a 31, goes, his heels, a hand hovering over laid cards) rendered as a camera over
the table films them (:mod:`vision.synth.golden`: decks the reader never trained on, hands
reaching in with motion blur), once with the played cards kept face up and once turned face down
at each reset. Rendering takes about a minute a video; the videos are cached between runs.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest

from companion.cli import main
from vision.synth.deals import golden_events, new_game
from vision.synth.golden import event_keys, golden_video

CARD_ACTIONS = ("starter", "play", "crib")
pytestmark = pytest.mark.slow


def expected() -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """The golden deals' events as the camera must send them, and the scores the engine gives."""
    game = new_game()
    for e in golden_events(with_go=False):
        game = game.apply(e)
    return event_keys(golden_events(with_go=False)), dict(game.scores)


@pytest.fixture(scope="module", params=["keep", "turn-down"])
def followed(request: pytest.FixtureRequest) -> tuple[dict[str, Any], dict[str, Any]]:
    path, truth = golden_video(reset=request.param)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["track", str(path), "--players", "Ann,Bob", "--dealer", "A", "--json"])
    assert status == 0
    return json.loads(out.getvalue().strip().splitlines()[-1]), truth


def test_every_event_and_score_is_exact(followed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    result, _truth = followed
    want, scores = expected()
    assert event_keys(result["events"]) == want
    assert result["state"]["scores"] == scores
    assert result["flagged"] == []


def test_each_card_is_committed_within_ten_frames_of_lying_still(
        followed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    result, truth = followed
    cards = [a for a in truth["actions"] if a["do"] in CARD_ACTIONS]
    sent = [e for e in result["events"] if e["type"] in CARD_ACTIONS]
    assert len(sent) == len(cards)
    for action, event in zip(cards, sent, strict=True):
        assert action["start"] <= event["frame"] <= action["still"] + 10, (action, event)


def test_nothing_is_sent_while_a_hand_hovers(followed: tuple[dict[str, Any], dict[str, Any]]) -> None:
    result, truth = followed
    hovers = [a for a in truth["actions"] if a["do"] == "hover"]
    assert len(hovers) == 2
    for hover in hovers:
        assert not [e for e in result["events"] if hover["start"] <= e["frame"] <= hover["end"]]
