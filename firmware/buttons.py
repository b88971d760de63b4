"""The board's buttons with gpiozero: next/confirm, undo, and a "go" per seat.

Every button is a :class:`gpiozero.Button` to ground (internal pull-up). A press becomes an
event name put on :attr:`BoardButtons.events` (a :class:`queue.Queue`) and handed to the
callbacks registered with :meth:`BoardButtons.on`:

==============  ========================  =========================================
button          default GPIO (BCM)        events
==============  ========================  =========================================
next/confirm    5                         ``"next"`` on release after a short press,
                                          ``"confirm"`` when held ``hold_time`` (1 s)
undo            6                         ``"undo"``
go, seat A/B/C  13 / 19 / 26              ``"go:A"``, ``"go:B"``, ``"go:C"``
==============  ========================  =========================================

gpiozero is imported in the constructor; pass ``pin_factory`` (e.g. gpiozero's
``MockFactory()``) to run anywhere. Callbacks run on gpiozero's thread: keep them short (put
work on a queue), and an exception in one is kept in :attr:`errors`, not raised there.

>>> from gpiozero.pins.mock import MockFactory
>>> buttons = BoardButtons(seats="AB", pin_factory=MockFactory(), bounce_time=None)
>>> buttons.pin("undo").drive_low(); buttons.pin("undo").drive_high()
>>> buttons.events.get_nowait()
'undo'
>>> buttons.close()
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

__all__ = ["DEFAULT_PINS", "BoardButtons"]

DEFAULT_PINS: dict[str, int] = {"next": 5, "undo": 6, "go:A": 13, "go:B": 19, "go:C": 26}


class BoardButtons:
    """The buttons for ``seats`` (e.g. "AB" or "ABC"); ``pins`` overrides GPIO numbers."""

    def __init__(self, seats: str = "AB", pins: dict[str, int] | None = None, *,
                 pin_factory: Any = None, bounce_time: float | None = 0.03,
                 hold_time: float = 1.0) -> None:
        from gpiozero import Button  # imported here: gpiozero picks a pin factory on first use

        chosen = dict(DEFAULT_PINS)
        chosen.update(pins or {})
        names = ["next", "undo"] + [f"go:{s.upper()}" for s in seats]
        unknown = set(pins or {}) - set(DEFAULT_PINS)
        if unknown:
            raise ValueError(f"unknown button(s): {', '.join(sorted(unknown))}")
        used = [chosen[n] for n in names]
        if len(set(used)) != len(used):
            raise ValueError("two buttons share a GPIO pin")
        self.events: queue.Queue[str] = queue.Queue()
        self.errors: list[BaseException] = []
        self._callbacks: list[tuple[str | None, Callable[[str], Any]]] = []
        self._held = False
        self.buttons: dict[str, Any] = {}
        try:
            for name in names:
                kwargs: dict[str, Any] = {"pull_up": True, "bounce_time": bounce_time,
                                          "pin_factory": pin_factory}
                if name == "next":
                    kwargs["hold_time"] = hold_time
                self.buttons[name] = Button(chosen[name], **kwargs)
        except Exception:
            self.close()
            raise
        nxt = self.buttons["next"]
        nxt.when_pressed = self._next_pressed
        nxt.when_held = self._next_held
        nxt.when_released = self._next_released
        for name in names[1:]:
            self.buttons[name].when_pressed = lambda _dev=None, n=name: self._emit(n)

    def on(self, event: str | None, callback: Callable[[str], Any]) -> None:
        """Call ``callback(event_name)`` for ``event`` (None: for every event)."""
        self._callbacks.append((event, callback))

    def pin(self, name: str) -> Any:
        """The gpiozero pin of button ``name`` (with MockFactory: ``drive_low()`` presses)."""
        return self.buttons[name].pin

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> BoardButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # gpiozero callbacks
    def _next_pressed(self) -> None:
        self._held = False

    def _next_held(self) -> None:
        self._held = True
        self._emit("confirm")

    def _next_released(self) -> None:
        if not self._held:
            self._emit("next")
        self._held = False

    def _emit(self, name: str) -> None:
        self.events.put(name)
        for event, callback in list(self._callbacks):
            if event is None or event == name:
                try:
                    callback(name)
                except Exception as exc:
                    self.errors.append(exc)
