"""Buttons through gpiozero's own MockFactory: presses become events and callbacks."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.buttons import DEFAULT_PINS, BoardButtons


def press(buttons: BoardButtons, name: str, hold: float = 0.0) -> None:
    pin = buttons.pin(name)
    pin.drive_low()
    if hold:
        time.sleep(hold)
    pin.drive_high()


def drain(buttons: BoardButtons) -> list[str]:
    out = []
    while not buttons.events.empty():
        out.append(buttons.events.get_nowait())
    return out


def test_each_button_is_an_event(factory: MockFactory) -> None:
    with BoardButtons(seats="ABC", bounce_time=None) as buttons:
        seen: list[str] = []
        buttons.on(None, seen.append)
        undos: list[str] = []
        buttons.on("undo", undos.append)
        for name in ("go:B", "undo", "go:A", "go:C", "next"):
            press(buttons, name)
        assert drain(buttons) == ["go:B", "undo", "go:A", "go:C", "next"]
        assert seen == ["go:B", "undo", "go:A", "go:C", "next"] and undos == ["undo"]
        # the default pins, pulled up: idle high, a press grounds it
        assert buttons.pin("go:A").info.name == f"GPIO{DEFAULT_PINS['go:A']}"
        assert not buttons.buttons["undo"].is_pressed


def test_holding_next_confirms_instead(factory: MockFactory) -> None:
    with BoardButtons(seats="AB", bounce_time=None, hold_time=0.05) as buttons:
        press(buttons, "next", hold=0.25)
        press(buttons, "next")
        assert drain(buttons) == ["confirm", "next"]


def test_a_failing_callback_does_not_stop_the_others(factory: MockFactory) -> None:
    with BoardButtons(seats="AB", bounce_time=None) as buttons:
        buttons.on("undo", lambda _e: 1 / 0)
        later: list[str] = []
        buttons.on("undo", later.append)
        press(buttons, "undo")
        assert later == ["undo"] and isinstance(buttons.errors[0], ZeroDivisionError)


def test_pins_can_be_moved_but_not_shared(factory: MockFactory) -> None:
    with BoardButtons(seats="AB", pins={"undo": 21}, bounce_time=None) as buttons:
        assert buttons.pin("undo").info.name == "GPIO21"
        assert "go:C" not in buttons.buttons
    with pytest.raises(ValueError, match="share"):
        BoardButtons(seats="AB", pins={"undo": 5})
    with pytest.raises(ValueError, match="unknown"):
        BoardButtons(seats="AB", pins={"reset": 4})


def test_explicit_pin_factory_without_the_global(factory: MockFactory) -> None:
    own = MockFactory()
    buttons = BoardButtons(seats="A", pin_factory=own, bounce_time=None)
    press(buttons, "go:A")
    assert drain(buttons) == ["go:A"]
    buttons.close()
