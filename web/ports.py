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
``("games", {"latest": id})`` when a game is started, ``("camera", status)`` when the camera,
its tracker or its flagged readings change (see :class:`CameraPort`)."""


class VisionUnavailable(Exception):
    """The card reader is not installed or failed to start; the page asks for the cards by hand."""


class PhotoUnreadable(Exception):
    """The photo cannot be decoded (damaged, or not what its header said): the upload is refused
    (400) and nothing is stored."""


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
        """Read the cards in a photo (JPEG, PNG or WebP already checked against the pixel budget
        of :mod:`imaging.limits`, which its decoding keeps to); raise ``VisionUnavailable``,
        ``PhotoUnreadable`` or ``CribbageError`` (no cards could be read)."""
        ...

    def status(self) -> dict[str, Any]:
        """What is running: ``{"leds": "sim", "vision": true, "demo": false, ...}``."""
        ...


class CameraPort(Protocol):
    """The camera and its tracker, an optional part of :class:`Table`.

    A table without these methods (or whose :meth:`camera_status` answers ``None``) has no camera:
    the ``/api/camera`` routes answer 404 and the page shows no Camera tab. :func:`camera_of` is
    how the app finds it (``create_app`` calls it once), so older tables need no change.

    Status (``camera_status``)::

        {"source": "video:/x/deal.mp4",
         "state": "starting" | "running" | "lost" | "failed" | "ended" | "stopped",
         "error": str | None, "retries": int, "frames": int, "fps": float | None,
         "tracker": "watching" | "hand over the table" | "waiting for a confirmation" | "paused",
         "game": int | None,                       # the game the camera feeds
         "expect": "Bob to play" | None,           # what the camera waits for, players' words
         "last": {"card": "QH", "say": "Q♥ played by Bob", "frame": 123} | None,  # the last card read
         "flagged": [{"id": 3, "frame": 412, "zone": "A", "card": "5S" | None,
                      "confidence": 0.41, "likely": ["5S", "5C", "6S"], "reason": "...",
                      "crop": "crops/000412-A.jpg",
                      "event": {"type": "play", "seat": "A", "card": "5S"} | None,
                      "kind": "starter" | "play" | "crib" | "crib-all",
                      "say": "A card in Ann's row I can't read",     # the flag in players' words
                      "choices": [{"label": "Ann's card", "action": "accept", "seat": "A"},
                                  {"label": "It's 5♣", "action": "fix", "card": "5C"}, ...]}],
         "zones": ZONES}

    ``expect``, ``last`` and a flag's ``kind``, ``say`` and ``choices`` come from the follower
    (:mod:`vision.track.follow`); the page copes without them (its own words from the game's
    state, with names, never seat letters).

    Zones are fractions of the frame ``[x0, y0, x1, y1]``; the centre wins where it overlaps a
    seat: ``{"players": 2, "centre": [0.3, 0.35, 0.7, 0.65],
    "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0, 1, 0.5]}}``.

    The companion calls its listeners with ``("camera", status)`` whenever the camera state,
    the tracker state or the flagged list changes; the live stream forwards it as
    ``event: camera``.
    """

    def camera_status(self) -> dict[str, Any] | None:
        """``None`` when no camera is configured; else the status above."""
        ...

    def camera_snapshot(self) -> bytes | None:
        """The newest frame as a small JPEG (at most 640 px wide); ``None`` before a frame."""
        ...

    def camera_zones(self) -> dict[str, Any]: ...

    def set_camera_zones(self, zones: dict[str, Any]) -> dict[str, Any]:
        """Check and save ``zones``; return them as saved, with ``"in_use": false`` when they are
        for another size of table than the game in progress (kept for that size; the zones in
        use are untouched). Raise ``CribbageError`` (a message for the player, seats named
        ``seat A``) when they are not zones."""
        ...

    def resolve_flag(self, flag_id: int, action: str, card: str | None = None,
                     seat: str | None = None) -> dict[str, Any]:
        """Settle a flagged reading: ``"accept"`` applies its event as read, ``"fix"`` applies it
        with ``card`` instead, ``"dismiss"`` drops it (not a card). ``seat`` (one of the game's
        seats, checked by the route) says whose card it is; it is passed only when given, so a
        camera without it still works. Return the game state after
        (``{}`` for dismiss). Raise ``KeyError`` for an unknown id, ``CribbageError`` (a
        ``RuleError`` when the game refuses the event) otherwise."""
        ...

    def camera_crop(self, name: str) -> bytes | None:
        """A crop JPEG from the data folder's ``crops/`` by file name; ``None`` when missing."""
        ...


CAMERA_METHODS = (
    "camera_status", "camera_snapshot", "camera_zones", "set_camera_zones", "resolve_flag",
    "camera_crop",
)


def camera_of(table: object) -> CameraPort | None:
    """``table`` itself when it has every :class:`CameraPort` method, else ``None``.

    >>> camera_of(object()) is None
    True
    """
    if all(callable(getattr(table, name, None)) for name in CAMERA_METHODS):
        return table  # type: ignore[return-value]
    return None
