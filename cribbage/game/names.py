"""Players' names a table can show: no hidden characters, no two alike.

A name (already trimmed) is refused, as input no game can take (:class:`cribbage.errors.InputError`:
the page's 400, the command line's exit 2), when it holds

* a control character (NUL, a tab, a line break, DEL, the C1 controls; a line or paragraph
  separator),
* a bidirectional control (a right-to-left override or embedding, an isolate, a direction mark):
  it turns the text around it, so the name reads as another,
* a zero-width or other invisible format character (a zero-width space, a word joiner, a byte
  order mark, a soft hyphen), except a zero-width joiner or non-joiner between two visible
  characters: emoji sequences and scripts such as Persian need them;

and the names are refused when two are the same, ignoring case, compatibility forms and those
joiners (``"ann"`` and ``"Ann"``; ``"A\\u200dnn"`` and ``"Ann"``).

>>> check_names(["Ann", "Bob"])
>>> check_names(["Ann", "Bob\\u202e"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cribbage.errors.InputError: player 2's name holds a right-to-left override (U+202E), which turns ...
>>> check_names(["Ann", "ANN"])
Traceback (most recent call last):
...
cribbage.errors.InputError: two players are called Ann: give each player a name of their own
>>> check_names(["Ann", "\\U0001f469\\u200d\\U0001f4bb"])  # an emoji sequence keeps its joiner
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from cribbage.errors import InputError

__all__ = ["check_names", "name_key"]

JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: allowed between two visible characters."""

_BIDI = {
    "\u061c": "an Arabic letter mark", "\u200e": "a left-to-right mark", "\u200f": "a right-to-left mark",
    "\u202a": "a left-to-right embedding", "\u202b": "a right-to-left embedding",
    "\u202c": "a pop directional formatting", "\u202d": "a left-to-right override",
    "\u202e": "a right-to-left override", "\u2066": "a left-to-right isolate",
    "\u2067": "a right-to-left isolate", "\u2068": "a first strong isolate",
    "\u2069": "a pop directional isolate",
}
_KINDS = ("Cc", "Cf", "Zl", "Zp")  # controls, format characters, line and paragraph separators


def _visible(char: str) -> bool:
    return not (char.isspace() or unicodedata.category(char) in _KINDS)


def _hidden(name: str) -> tuple[str, str] | None:
    """The first character of ``name`` a table must not show, and what it is; None if none."""
    for k, char in enumerate(name):
        kind = unicodedata.category(char)
        if char in _BIDI:
            return char, f"{_BIDI[char]} (U+{ord(char):04X}), which turns the text round it"
        if kind in ("Cc", "Zl", "Zp"):
            return char, f"a control character (U+{ord(char):04X})"
        if kind == "Cf":
            if char in JOINERS and 0 < k < len(name) - 1 and _visible(name[k - 1]) and _visible(name[k + 1]):
                continue
            return char, f"an invisible character (U+{ord(char):04X})"
    return None


def name_key(name: str) -> str:
    """How two names are compared: trimmed, compatibility forms folded, case folded, joiners out.

    >>> name_key(" ＡＮＮ "), name_key("A\\u200dnn")
    ('ann', 'ann')
    """
    folded = unicodedata.normalize("NFKC", name.strip()).casefold()
    return "".join(c for c in folded if c not in JOINERS)


def check_names(players: Sequence[str]) -> None:
    """Refuse names with a hidden character, or two names alike (see the module)."""
    for k, name in enumerate(players):
        hidden = _hidden(name)
        if hidden is not None:
            raise InputError(f"player {k + 1}'s name holds {hidden[1]}: type the name again without it")
    seen: dict[str, str] = {}
    for name in players:
        key = name_key(name)
        if key in seen:
            raise InputError(f"two players are called {seen[key]}: give each player a name of their own")
        seen[key] = name
