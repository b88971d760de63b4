"""What the page needs from the rest of the companion, as one small interface.

The app factory (:func:`web.create_app`) is handed an object with these methods; the composition
root (``companion.service.Companion``) is the real one. The web part never builds a store, an LED
output or a card reader itself, so it can be tested and run with any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Listener = Callable[[str, dict[str, Any]], None]
"""Called with a topic and its data: ``("state", {"game_id": id, "state": state_json})`` after
every change to a game, ``("leds", {"frame": n})`` when a new LED frame is drawn,
``("games", {"latest": id})`` when a game is started."""


class VisionUnavailable(Exception):
    """The card reader is not installed or failed to start; the page asks for the cards by hand."""


class Table(Protocol):
    """The companion as the page sees it."""

    def new_game(self, settings: dict[str, Any]) -> int: ...

    def apply(self, game_id: int, event: dict[str, Any], source: str = "page") -> dict[str, Any]:
        """Apply ``event``; raise ``CribbageError`` (game unchanged) if the rules refuse it."""
        ...

    def preview(self, game_id: int, event: dict[str, Any]) -> dict[str, Any]:
        """The state ``event`` would give, without storing it (raises like :meth:`apply`)."""
        ...

    def state(self, game_id: int) -> dict[str, Any]: ...

    def events(self, game_id: int) -> list[dict[str, Any]]: ...

    def games(self) -> list[dict[str, Any]]: ...

    def latest_game(self) -> int | None: ...

    def add_listener(self, listener: Listener) -> None: ...

    def board_layout(self, tracks: int, target: int) -> dict[str, Any]:
        """The peg board layout (``firmware.layout``) as a dict, for ``tracks`` sides and a
        ``target``-point game, as the LEDs use it."""
        ...

    def led_frame_png(self) -> bytes | None:
        """The LED frame last drawn, as PNG, when the LEDs are simulated; else ``None``."""
        ...

    def read_cards(self, image: bytes) -> dict[str, Any]:
        """Read the cards in a photo; raise ``VisionUnavailable`` or ``CribbageError``."""
        ...

    def status(self) -> dict[str, Any]:
        """What is running: ``{"leds": "sim", "vision": true, "demo": false, ...}``."""
        ...
