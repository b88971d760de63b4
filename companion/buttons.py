"""The board's buttons in ``crib serve --buttons``: each press applied on a thread of its own.

gpiozero calls back on its own thread, which must not wait on the game store, so
:class:`ButtonPresses` only queues the press's name there; its worker thread hands the names,
one at a time and in order, to ``press`` (:meth:`companion.service.Companion.press`, which
turns ``undo`` and ``go:A`` into game events and ``next`` into the camera's confirmation).

>>> from gpiozero.pins.mock import MockFactory
>>> from firmware.buttons import BoardButtons
>>> heard = []
>>> presses = ButtonPresses(BoardButtons(seats="AB", pin_factory=MockFactory(), bounce_time=None),
...                         heard.append)
>>> presses.buttons.pin("go:B").drive_low(); presses.buttons.pin("go:B").drive_high()
>>> presses.join(); heard
['go:B']
>>> presses.close()
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.buttons import BoardButtons


class ButtonPresses:
    """Hands every press of ``buttons`` to ``press(name)`` on a worker thread, in order."""

    def __init__(self, buttons: BoardButtons, press: Callable[[str], object]) -> None:
        self.buttons = buttons
        self._press = press
        self._queue: queue.Queue[str | None] = queue.Queue()
        buttons.on(None, self._queue.put)
        self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
        self._thread.start()

    def join(self) -> None:
        """Wait until every press so far has been handled (for tests)."""
        self._queue.join()

    def close(self) -> None:
        """Release the buttons' pins and stop the worker once the presses queued are handled."""
        self.buttons.close()
        self._queue.put(None)
        self._thread.join(timeout=2)

    def _run(self) -> None:
        while (name := self._queue.get()) is not None:
            try:
                self._press(name)
            finally:
                self._queue.task_done()
        self._queue.task_done()
