"""The errors the rules engine raises. All are :class:`CribbageError`, a ``ValueError``.

>>> raise CardError("not a card: 'ZZ'")
Traceback (most recent call last):
...
cribbage.errors.CardError: not a card: 'ZZ'
"""

from __future__ import annotations


class CribbageError(ValueError):
    """Anything the rules refuse or cannot read. The message is meant for a player."""


class CardError(CribbageError):
    """A token that is not a card, or a card given twice where each card must be unique."""


class RuleError(CribbageError):
    """An action the rules forbid. ``rule`` names the rule broken (for example ``"turn"``)."""

    def __init__(self, message: str, rule: str = "rules") -> None:
        super().__init__(message)
        self.rule = rule


class InputError(CribbageError):
    """Input no game can take, whatever its state: too large, nested too deeply, a number too
    long, text that is not valid Unicode. The message names the field where it can."""


STORAGE_CAUSES = ("full", "read-only", "io", "locked", "damaged", "missing")


class StorageError(RuntimeError):
    """The game log's storage failed: the disk, not the rules. Not a :class:`CribbageError`, so
    no caller mistakes it for a refused move. ``cause`` is one of :data:`STORAGE_CAUSES`; the
    message says it in a player's words, and nothing was recorded.

    >>> raise StorageError("the SD card is full: nothing was recorded", cause="full")
    Traceback (most recent call last):
    ...
    cribbage.errors.StorageError: the SD card is full: nothing was recorded
    """

    def __init__(self, message: str, cause: str) -> None:
        super().__init__(message)
        self.cause = cause
