"""Helpers for the game tests: build a game from events in a few words."""

from __future__ import annotations

from typing import Any

import pytest

from cribbage.game import Game, Settings


def new(**settings: Any) -> Game:
    """A fresh game with ``settings`` (keyword names as in Settings.from_json)."""
    return Game(Settings.from_json(settings))


def run(game: Game, *events: dict[str, Any] | str) -> Game:
    """Apply events; a string is shorthand: ``"A 5H"`` lays, ``"A go"`` says go."""
    for event in events:
        if isinstance(event, str):
            seat, what = event.split()
            event = (
                {"type": "go", "seat": seat}
                if what == "go"
                else {"type": "play", "seat": seat, "card": what}
            )
        game = game.apply(event)
    return game


def refused(game: Game, event: dict[str, Any] | str, rule: str) -> str:
    """Assert ``event`` is refused with ``rule``, the game unchanged; return the message."""
    from cribbage.errors import RuleError

    before = game.to_json()
    with pytest.raises(RuleError) as info:
        run(game, event)
    assert info.value.rule == rule, f"refused by {info.value.rule}, not {rule}: {info.value}"
    assert game.to_json() == before
    return str(info.value)


def explained(game: Game) -> None:
    """Every point on the board is explained by an award of an event still in force."""
    totals = dict.fromkeys(game.scores, 0)
    for result in game.results.values():  # one per event in force, in the fold
        for award in result["points"]:
            assert 0 <= award["pegged"] <= award["points"]  # 0: scored after the game was won
            totals[award["side"]] += award["pegged"]
    assert totals == game.scores
    rows = game.rows()
    assert len(rows) == len(game.log)
    shown = dict.fromkeys(game.scores, 0)
    for row in rows:
        for award in row["points"]:
            shown[award["side"]] += award["pegged"]
    assert shown == game.scores  # the history lists every point once
