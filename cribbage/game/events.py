"""The events a table sends to the game, checked and written in one canonical form.

Every event is a JSON object with a ``type``. :func:`normalize` checks its fields and returns
the form the log stores: seats as capital letters, cards as canonical names, numbers as ints,
each bounded to its domain (:mod:`cribbage.game.limits`). Unknown keys are dropped. An event
the camera saw (``starter``, ``play``, ``show``, ``crib``, ``crib-card``, ``go``) may carry
``seen``, how it was seen: the frame, the reader's confidence and the crop of the cards; it is
kept with the event and changes nothing in the rules.

>>> normalize({"type": "play", "seat": "b", "card": "10h"}, seats=2)
{'type': 'play', 'seat': 'B', 'card': 'TH'}
>>> normalize({"type": "show", "seat": "A", "cards": "5C 5D JS 6H", "claim": 12}, seats=2)
{'type': 'show', 'seat': 'A', 'cards': ['5C', '5D', 'JS', '6H'], 'claim': 12}
>>> normalize({"type": "go", "seat": "a", "seen": {"frame": 812, "confidence": 0.97}}, seats=2)
{'type': 'go', 'seat': 'A', 'seen': {'frame': 812, 'confidence': 0.97}}
>>> normalize({"type": "adjust", "seat": "A", "points": 500}, seats=2)
Traceback (most recent call last):
...
cribbage.errors.RuleError: adjust: points is a whole number from 1 to 121, not 500
>>> normalize({"type": "peg"}, seats=2)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cribbage.errors.RuleError: no event of type 'peg' (known: dealer, cut, new-deal, hand, ...)
"""

from __future__ import annotations

import math
import re
from typing import Any

from cribbage.cards import parse_card, parse_cards, require_distinct
from cribbage.errors import RuleError
from cribbage.game.limits import (
    MAX_ADJUST,
    MAX_CLAIM,
    MAX_DIGITS,
    MAX_EVENT_NUMBER,
    MAX_PENALTY,
    MAX_REASON,
    check_text,
)
from cribbage.game.limits import shown as _shown
from cribbage.game.settings import VARIANTS

__all__ = ["META_TYPES", "SEEN_TYPES", "TABLE_TYPES", "normalize"]

TABLE_TYPES = (
    "dealer", "cut", "new-deal", "hand", "discard", "crib-card", "starter", "play", "go",
    "show", "crib", "muggins", "adjust", "misdeal",
)
"""Events that happen at the table and change the game; each is applied by its handler in
:data:`cribbage.game.game.HANDLERS` (a test checks the two lists agree)."""
META_TYPES = ("correct", "undo")
"""Events about other events: they supersede earlier ones, and the game is folded again."""
SEEN_TYPES = ("starter", "play", "show", "crib", "crib-card", "go")
"""Events a camera sees, which may carry ``seen`` (how it saw them)."""

_CROP = re.compile(r"crops/[A-Za-z0-9._-]{1,80}\.jpg")
_MAX_FRAME = 10**9
MAX_CARDS = max(v.dealt for v in VARIANTS.values())
"""The most cards one event names: a hand as dealt."""


def _seat(event: dict[str, Any], seats: int, key: str = "seat") -> str:
    value = event.get(key)
    if not isinstance(value, str) or len(value) != 1 or not value.isalpha():
        raise RuleError(
            f"{event['type']} needs a {key} (a letter from A), not {_shown(value)}", rule="seat"
        )
    letter = value.upper()
    if not "A" <= letter < chr(65 + seats):
        raise RuleError(
            f"no seat {letter} at a table of {seats} (seats A to {chr(64 + seats)})", rule="seat"
        )
    return letter


_NUMBER = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


def _int(
    event: dict[str, Any], key: str, *, minimum: int, maximum: int, required: bool
) -> int | None:
    """``event[key]`` as a whole number from ``minimum`` to ``maximum`` (a string of digits is
    read as one); a missing one is None unless ``required``."""
    value = event.get(key)
    if value is None:
        if required:
            raise RuleError(f"{event['type']} needs {key} (a number)", rule="event")
        return None
    if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        value = int(value)
    if (
        not isinstance(value, int) or isinstance(value, bool)
        or not minimum <= value <= maximum
    ):
        raise RuleError(
            f"{event['type']}: {key} is a whole number from {minimum} to {maximum}, "
            f"not {_shown(value)}",
            rule="event",
        )
    return value


def _cards(event: dict[str, Any], key: str = "cards", *, required: bool = True) -> list[str] | None:
    value = event.get(key)
    if value is None:
        if required:
            raise RuleError(f"{event['type']} needs {key}", rule="event")
        return None
    if not isinstance(value, str | list | tuple):
        raise RuleError(f"{event['type']}: {key} is a list of cards", rule="event")
    cards = parse_cards(value, unique=False)
    if len(cards) > MAX_CARDS:
        raise RuleError(
            f"{event['type']}: {key} is at most {MAX_CARDS} cards, not {len(cards)}",
            rule="hand-size",
        )
    require_distinct(cards)
    return [c.name for c in cards]


def _card(event: dict[str, Any], key: str = "card") -> str:
    value = event.get(key)
    if value is None:
        raise RuleError(f"{event['type']} needs a {key}", rule="event")
    return parse_card(value).name


def _seen(event: dict[str, Any]) -> dict[str, Any] | None:
    """The camera's provenance of ``event``, checked: ``frame``, ``confidence``, ``crop``.

    Every key is optional and unknown keys are dropped; None when nothing is recorded.

    >>> _seen({"type": "play", "seen": {"frame": 3, "confidence": 1, "crop": "crops/f3-a.jpg"}})
    {'frame': 3, 'confidence': 1.0, 'crop': 'crops/f3-a.jpg'}
    >>> _seen({"type": "play", "seen": {"crop": "../etc/passwd"}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cribbage.errors.RuleError: play: seen.crop is a file under crops/ ... not '../etc/passwd'
    """
    value = event.get("seen")
    if value is None:
        return None
    kind = event["type"]
    if not isinstance(value, dict):
        raise RuleError(
            f"{kind}: seen is an object (frame, confidence, crop), not {_shown(value)}", rule="event"
        )
    out: dict[str, Any] = {}
    frame = value.get("frame")
    if frame is not None:
        if not isinstance(frame, int) or isinstance(frame, bool) or not 0 <= frame <= _MAX_FRAME:
            raise RuleError(
                f"{kind}: seen.frame is a whole number from 0 to {_MAX_FRAME}, not {_shown(frame)}",
                rule="event",
            )
        out["frame"] = frame
    confidence = value.get("confidence")
    if confidence is not None:
        if (
            not isinstance(confidence, int | float) or isinstance(confidence, bool)
            or not 0 <= confidence <= 1 or not math.isfinite(confidence)
        ):
            raise RuleError(
                f"{kind}: seen.confidence is a number from 0 to 1, not {_shown(confidence)}",
                rule="event",
            )
        out["confidence"] = float(confidence)
    crop = value.get("crop")
    if crop is not None:
        if not isinstance(crop, str) or _CROP.fullmatch(crop) is None:
            raise RuleError(
                f"{kind}: seen.crop is a file under crops/ (crops/NAME.jpg, the name 1 to 80 "
                f"letters, digits, '.', '_' or '-'), not {_shown(crop)}", rule="event",
            )
        out["crop"] = crop
    return out or None


def normalize(event: Any, seats: int) -> dict[str, Any]:
    """Check ``event`` for a table of ``seats`` and return its canonical form.

    Raises :class:`~cribbage.errors.RuleError` (rule ``event`` or ``seat``) or
    :class:`~cribbage.errors.CardError` for a malformed event. Whether the event is legal now
    is the game's business, not this function's.
    """
    if not isinstance(event, dict):
        raise RuleError("an event is a JSON object with a type", rule="event")
    kind = event.get("type")
    if kind not in TABLE_TYPES and kind not in META_TYPES:
        raise RuleError(
            f"no event of type {_shown(kind)} (known: {', '.join(TABLE_TYPES + META_TYPES)})",
            rule="event",
        )
    out: dict[str, Any] = {"type": kind}
    if kind == "dealer":
        out["seat"] = _seat(event, seats)
    elif kind == "cut":
        cards = event.get("cards")
        if not isinstance(cards, dict):
            raise RuleError('cut needs cards: {"A": "4H", "B": "9C", ...}', rule="event")
        letters = {_seat({"type": "cut", "seat": k}, seats): v for k, v in cards.items()}
        if not letters:
            raise RuleError('cut needs cards: {"A": "4H", "B": "9C", ...}', rule="event")
        # who must cut (every seat, or only those tied in the cut before) is the game's
        # business (Game.cutting); here the cards are checked and put in seat order
        order = sorted(letters)
        names = [parse_card(letters[seat]) for seat in order]  # each one a card: "" is not
        require_distinct(names)
        out["cards"] = {seat: names[k].name for k, seat in enumerate(order)}
    elif kind in ("hand", "discard"):
        out["seat"] = _seat(event, seats)
        out["cards"] = _cards(event)
    elif kind in ("crib-card", "starter"):
        out["card"] = _card(event)
    elif kind == "play":
        out["seat"] = _seat(event, seats)
        out["card"] = _card(event)
        claim = _int(event, "claim", minimum=0, maximum=MAX_CLAIM, required=False)
        if claim is not None:
            out["claim"] = claim
    elif kind == "go":
        out["seat"] = _seat(event, seats)
    elif kind in ("show", "crib"):
        if kind == "show":
            out["seat"] = _seat(event, seats)
        cards = _cards(event, required=False)
        if cards is not None:
            out["cards"] = cards
        claim = _int(event, "claim", minimum=0, maximum=MAX_CLAIM, required=False)
        if claim is not None:
            out["claim"] = claim
    elif kind == "muggins":
        out["seat"] = _seat(event, seats)
        target = _int(event, "event", minimum=1, maximum=MAX_EVENT_NUMBER, required=False)
        if target is not None:
            out["event"] = target
    elif kind == "adjust":
        out["seat"] = _seat(event, seats)
        out["points"] = _int(event, "points", minimum=1, maximum=MAX_ADJUST, required=True)
        reason = event.get("reason", "")
        if not isinstance(reason, str):
            raise RuleError("adjust: reason is text", rule="event")
        out["reason"] = check_text(reason, "adjust: reason").strip()[:MAX_REASON]
    elif kind == "new-deal":
        if event.get("dealer") is not None:
            out["dealer"] = _seat(event, seats, "dealer")
    elif kind == "misdeal":
        penalty = _int(event, "penalty", minimum=0, maximum=MAX_PENALTY, required=False)
        out["penalty"] = 2 if penalty is None else penalty
        if event.get("seat") is not None:
            out["seat"] = _seat(event, seats)
    elif kind == "correct":
        out["event"] = _int(event, "event", minimum=1, maximum=MAX_EVENT_NUMBER, required=True)
        replacement = event.get("with")
        if not isinstance(replacement, dict) or replacement.get("type") not in TABLE_TYPES:
            raise RuleError(
                "correct needs with: the table event that replaces it", rule="correct"
            )
        out["with"] = normalize(replacement, seats)
    if kind in SEEN_TYPES:
        seen = _seen(event)
        if seen is not None:
            out["seen"] = seen
    return out
