"""The buttons' presses as game events: what :class:`firmware.buttons.BoardButtons` names
(``"undo"``, ``"go:A"``, ``"next"``, ``"confirm"``) turned into the event dicts the game takes.

``undo`` and ``go`` are the engine's own events (``cribbage.game.events``); ``next`` and
``confirm`` have no engine event — the companion reads them as "show the next step" and
"accept what the page proposes" — so they come as ``{"type": "next"}`` / ``{"type": "confirm"}``.

>>> game_event("go:B"), game_event("undo"), game_event("confirm")
({'type': 'go', 'seat': 'B'}, {'type': 'undo'}, {'type': 'confirm'})
>>> from gpiozero.pins.mock import MockFactory
>>> from firmware.buttons import BoardButtons
>>> got = []
>>> buttons = BoardButtons(seats="AB", pin_factory=MockFactory(), bounce_time=None)
>>> connect(buttons, got.append)
>>> buttons.pin("go:A").drive_low(); buttons.pin("go:A").drive_high()
>>> got
[{'type': 'go', 'seat': 'A'}]
>>> buttons.close()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["connect", "game_event"]


def game_event(name: str) -> dict[str, Any]:
    """The game event for a button's event name; :class:`ValueError` for an unknown one."""
    kind, _, seat = name.partition(":")
    if kind == "go" and len(seat) == 1 and seat.upper() in "ABC":
        return {"type": "go", "seat": seat.upper()}
    if kind in ("undo", "next", "confirm") and not seat:
        return {"type": kind}
    raise ValueError(f"no game event for button event {name!r}")


def connect(buttons: Any, handler: Callable[[dict[str, Any]], Any]) -> None:
    """Call ``handler(event_dict)`` for every press of ``buttons`` (a ``BoardButtons``)."""
    buttons.on(None, lambda name: handler(game_event(name)))
