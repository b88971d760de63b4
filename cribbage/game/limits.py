"""The bounds on what a table may send, one definition each, shared by the page and ``crib``.

An event is JSON of at most :data:`MAX_EVENT_BYTES`, nested at most :data:`MAX_DEPTH` deep, its
whole numbers at most :data:`MAX_DIGITS` digits and its text valid Unicode. :func:`load_json`
reads such text without letting a hostile body exhaust the stack or the int conversion; the
event's own fields are then bounded to their domain by :func:`cribbage.game.events.normalize`
(claims 0 to :data:`MAX_CLAIM`, an adjustment 1 to :data:`MAX_ADJUST`, a misdeal's penalty 0 to
:data:`MAX_PENALTY`, an event number 1 to :data:`MAX_EVENT_NUMBER`).

>>> load_json('{"type": "go", "seat": "A"}')
{'type': 'go', 'seat': 'A'}
>>> load_json("[" * 40 + "]" * 40)
Traceback (most recent call last):
...
cribbage.errors.InputError: the event is too deeply nested (40 levels; at most 32)
>>> load_json('{"players": ["Ann", "\\\\ud800"]}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cribbage.errors.InputError: players[1] is not valid Unicode text (U+D800 is a lone surrogate ...)
>>> load_json('{"points": 1' + "0" * 30 + "}")
Traceback (most recent call last):
...
cribbage.errors.InputError: the event has a number of 31 digits (at most 18)
"""

from __future__ import annotations

import json
import re
from functools import partial
from itertools import accumulate
from typing import Any

from cribbage.errors import InputError

__all__ = [
    "MAX_ADJUST", "MAX_CLAIM", "MAX_DEPTH", "MAX_DIGITS", "MAX_EVENT_BYTES", "MAX_EVENT_NUMBER",
    "MAX_NAME", "MAX_PENALTY", "MAX_REASON", "check_text", "json_depth", "load_json", "shown",
]

MAX_EVENT_BYTES = 16_384
"""The largest event, settings or other request body, in bytes of UTF-8."""
MAX_DEPTH = 32
"""The deepest nesting of arrays and objects in one body (an event needs 3: a correction's seen)."""
MAX_DIGITS = 18
"""The most digits in one whole number of a body (a 64-bit integer has 19)."""
MAX_CLAIM = 29
"""The most a claim can be: the best hand (a play or a crib scores less)."""
MAX_ADJUST = 121
"""The most one adjustment pegs: a whole game on the longest board."""
MAX_PENALTY = 10
"""The largest misdeal penalty a table may set (the usual one is 2)."""
MAX_EVENT_NUMBER = 1_000_000
"""The largest event number a correction or a muggins call may name."""
MAX_REASON = 200
"""An adjustment's reason is kept to this many characters."""
MAX_NAME = 24
"""The longest player's name, in characters: it fits the page's score line and is said aloud
in a second or two; a longer one is refused (:meth:`cribbage.game.Settings.from_json`)."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
"""A JSON string, closed or not; linear on any text (no backtracking between alternatives)."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_LONG_NUMBER = re.compile(rf"[0-9]{{{MAX_DIGITS + 1},}}")
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAYBE_SURROGATE = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
"""A raw surrogate, or a JSON escape that may make one (a valid pair is checked and let by)."""


def _skeleton(text: str) -> str:
    """``text`` with every string emptied: what is left is structure, numbers and literals."""
    return _STRING.sub('""', text)


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of JSON ``text`` nest, brackets in strings not counted;
    no recursion, so any text is safe. Malformed text is measured as well as it can be: every
    depth a parser reaches before it finds the text malformed is counted.

    >>> json_depth('{"a": [1, {"b": "[[["}]}'), json_depth("5")
    (3, 0)
    """
    return _depth(_skeleton(text))


def _depth(skeleton: str) -> int:
    brackets = _NOT_BRACKET.sub("", skeleton)
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets)), default=0))


def shown(value: Any) -> str:
    """``repr(value)`` cut short for a message; a huge number by its size, never its digits.

    >>> shown("x" * 100)[-5:], shown(10**5000)
    ('xx...', 'a number of 5001 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        digits = len(str(abs(value))) if value.bit_length() < 4000 else _digits(value)
        return f"a number of {digits} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _digits(value: int) -> int:
    """Decimal digits of ``abs(value)`` without converting it to a string."""
    n = abs(value)
    digits = int(n.bit_length() * 0.30102999566398120) + 1
    return digits if n >= 10 ** (digits - 1) else digits - 1


def check_text(value: str, field: str) -> str:
    """``value`` if it is valid Unicode text, else :class:`InputError` naming ``field``: a lone
    surrogate (JSON ``"\\ud800"``) or a byte the command line could not decode (``\\xff``).

    >>> check_text("Ann", "players")
    'Ann'
    """
    bad = _SURROGATE.search(value)
    if bad is not None:
        raise InputError(
            f"{field} is not valid Unicode text (U+{ord(bad.group()):04X} is a lone surrogate "
            "or a byte that is not UTF-8)"
        )
    return value


def _constant(name: str, what: str) -> float:
    raise InputError(f"{what} has {name}, which is not a JSON number")


def _check_strings(data: Any, what: str) -> None:
    """Refuse any key or string in ``data`` that is not valid Unicode, naming where it is."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            check_text(value, path or what)
        elif isinstance(value, dict):
            for key, item in value.items():
                check_text(key, f"a key in {path or what}")
                stack.append((item, f"{path}.{key}" if path else key))
        elif isinstance(value, list):
            stack.extend((item, f"{path or what}[{k}]") for k, item in enumerate(value))


def load_json(text: str | bytes, *, what: str = "the event") -> Any:
    """Parse JSON ``text`` (str, or bytes of UTF-8) within the limits above.

    Raises :class:`~cribbage.errors.InputError` for text too large, not UTF-8, nested too
    deeply, with a number too long or NaN/Infinity, or with text that is not valid Unicode; and
    ``json.JSONDecodeError`` (a ``ValueError``) for text that is not JSON at all.
    """
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_EVENT_BYTES:
        raise InputError(f"{what} is too large ({size} bytes; at most {MAX_EVENT_BYTES})")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{what} is not UTF-8 text (byte 0x{text[exc.start]:02x} at {exc.start})"
            ) from None
    skeleton = _skeleton(text)
    depth = _depth(skeleton)
    if depth > MAX_DEPTH:
        raise InputError(f"{what} is too deeply nested ({depth} levels; at most {MAX_DEPTH})")
    long = _LONG_NUMBER.search(skeleton)
    if long is not None:
        raise InputError(
            f"{what} has a number of {len(long.group())} digits (at most {MAX_DIGITS})"
        )
    data = json.loads(text, parse_constant=partial(_constant, what=what))
    if _MAYBE_SURROGATE.search(text):
        _check_strings(data, what)
    return data
