"""The demo behind ``crib serve --demo``: a game of Alice and Bob that plays itself, slowly.

The moves are :func:`cribbage.game.simulate.random_events`' random player, with a fixed seed
(every demo plays the same game) and only what a camera would send: Bob deals first; then
each deal's starter, every card laid and every go, and the hands and the crib shown with their
cards, counted by the companion (``counting: auto``).

>>> events = demo_events()
>>> [next(events) for _ in range(2)]
[{'type': 'dealer', 'seat': 'B'}, {'type': 'starter', 'card': '7C'}]
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterator
from typing import Any, Protocol

log = logging.getLogger("companion")

NAMES = ("Alice", "Bob")
"""The demo's players."""
SETTINGS: dict[str, Any] = {"players": list(NAMES), "variant": "six-card", "counting": "auto"}
"""The demo game's settings, as the page's new-game form sends them."""
SEED = 121
"""The shuffle's seed."""


def demo_events(seed: int = SEED) -> Iterator[dict[str, Any]]:
    """The events of the demo game, from Bob's deal to the winning peg."""
    from cribbage.game.settings import Settings
    from cribbage.game.simulate import random_events

    rng = random.Random(seed)
    for _game, event in random_events(Settings.from_json(SETTINGS), rng, hands_known=False,
                                      dealer="B"):
        yield event


class DemoTable(Protocol):
    """What the demo needs of the companion (:class:`companion.service.Companion` has it)."""

    def new_game(self, settings: dict[str, Any]) -> int: ...

    def apply(self, game_id: int, event: dict[str, Any], source: str = "page") -> dict[str, Any]: ...

    def latest_game(self) -> int | None: ...


class DemoDealer:
    """Plays the demo game into ``table``, one event every ``step_s`` seconds, on a thread.

    It stops at the end of the game, when someone starts another game (the page follows the
    newest one), when the game refuses an event (a player corrected the demo on the page), or
    at :meth:`stop`.
    """

    NAMES = NAMES

    def __init__(self, table: DemoTable, step_s: float = 2.5, seed: int = SEED) -> None:
        self.table = table
        self.step_s = step_s
        self.seed = seed
        self.game_id: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)

    def start(self) -> int:
        """Start the demo game and its thread; the game's id."""
        self.game_id = self.table.new_game(dict(SETTINGS, players=list(NAMES)))
        self._thread.start()
        return self.game_id

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        assert self.game_id is not None
        for event in demo_events(self.seed):
            if self._stop.wait(self.step_s):
                return
            if self.table.latest_game() != self.game_id:
                log.info("demo: another game started; the demo stops")
                return
            try:
                self.table.apply(self.game_id, event, source="demo")
            except Exception:
                log.exception("demo: event refused; the demo stops")
                return
        log.info("demo: game over")
