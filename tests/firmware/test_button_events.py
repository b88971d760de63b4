"""Button presses through gpiozero's MockFactory arrive as the game's event dicts."""

from __future__ import annotations

import time
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from cribbage.game.events import META_TYPES
from firmware.button_events import connect, game_event
from firmware.buttons import BoardButtons


def test_presses_become_game_events(factory: MockFactory) -> None:
    got: list[dict[str, Any]] = []
    with BoardButtons(seats="ABC", bounce_time=None, hold_time=0.05) as buttons:
        connect(buttons, got.append)
        for name in ("go:C", "undo", "go:A"):
            buttons.pin(name).drive_low()
            buttons.pin(name).drive_high()
        pin = buttons.pin("next")
        pin.drive_low()
        pin.drive_high()
        pin.drive_low()
        time.sleep(0.25)  # held past hold_time: confirm
        pin.drive_high()
    assert got == [{"type": "go", "seat": "C"}, {"type": "undo"}, {"type": "go", "seat": "A"},
                   {"type": "next"}, {"type": "confirm"}]
    assert "undo" in META_TYPES  # the engine's own undo


@pytest.mark.parametrize("name", ["go", "go:D", "go:AB", "undo:A", "reset", ""])
def test_unknown_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="no game event"):
        game_event(name)
