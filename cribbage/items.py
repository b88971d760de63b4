"""A scoring item: one combination that earns points, with the cards that make it.

Both the show and the play explain every point as a list of items.

>>> from cribbage.cards import parse_cards
>>> item = Item("fifteen", tuple(parse_cards("5C JS")), 2)
>>> item.to_json()
{'kind': 'fifteen', 'cards': ['5C', 'JS'], 'points': 2}
>>> str(item)
'fifteen (5C JS) 2'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cribbage.cards import Card, parse_card

SHOW_KINDS = ("fifteen", "pair", "run", "flush", "nobs")
"""Kinds of item in the show, in the order they are counted aloud."""
PLAY_KINDS = ("fifteen", "thirty-one", "pair", "run", "go")
"""Kinds of item in the play; ``go`` is the point for last card."""


@dataclass(frozen=True, slots=True)
class Item:
    """``points`` earned by ``kind`` with ``cards`` (in the order they lie)."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        """The item as JSON: ``{"kind": ..., "cards": [...], "points": ...}``."""
        return {"kind": self.kind, "cards": [c.name for c in self.cards], "points": self.points}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Item:
        """Read an item written by :meth:`to_json`."""
        return cls(str(data["kind"]), tuple(parse_card(c) for c in data["cards"]), int(data["points"]))

    def __str__(self) -> str:
        return f"{self.kind} ({' '.join(c.name for c in self.cards)}) {self.points}"


def total(items: Iterable[Item]) -> int:
    """The points of ``items`` added up.

    >>> total([])
    0
    """
    return sum(i.points for i in items)
