"""What the card reader reports: the cards read, the marks it could not read, and the reading.

These types import nothing of the pipeline (:mod:`vision.reader` builds them; :mod:`vision.hand`,
:mod:`vision.proportions`, :mod:`vision.track` and the command line read them).

>>> r = Reading([CardRead("5H", 0.93, (120.0, 80.0))], [Unreadable((300.0, 40.0))], 12.3, 640, 480)
>>> r.to_json("table.jpg")["cards"]
[{'card': '5H', 'confidence': 0.93, 'center': [120.0, 80.0], 'quad': None}]
>>> r.to_json()["unreadable"]
[{'center': [300.0, 40.0]}]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cribbage.cards import Card

__all__ = ["CardRead", "IndexSeen", "Reading", "Unreadable"]


@dataclass(frozen=True)
class IndexSeen:
    """One corner index of a card read: its centre (x, y), its "down" (the unit vector from rank
    glyph to suit pip: the card's body lies that way and to the index's right) and its glyph's
    size, in the photo's pixels."""

    center: tuple[float, float]
    down: tuple[float, float]
    size: float


@dataclass
class CardRead:
    """One card read: the card (a :class:`cribbage.cards.Card`; given as a name such as ``"5H"``, it
    is read as that card), confidence 0-1, centre (x, y), outline or None; and its corner indices
    as seen (which tell how it lies among other cards: :mod:`vision.hand`; they are not part of the
    detect JSON).

    >>> CardRead("th", 0.9, (10.0, 20.0)).card
    Card('TH')
    """

    card: Card
    confidence: float
    center: tuple[float, float]
    quad: list[list[float]] | None = None
    indices: list[IndexSeen] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.card = Card(self.card)

    def to_json(self) -> dict[str, Any]:
        """The detect-format entry."""
        return {
            "card": self.card.name,
            "confidence": round(self.confidence, 3),
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "quad": self.quad,
        }


@dataclass
class Unreadable:
    """Something that looks like a corner index but could not be read with confidence: its centre,
    the glyph's size (px, 0 when unknown) and the cards it was read as, likeliest first, below the
    threshold (``likely``; not part of the detect JSON).

    >>> Unreadable((10.0, 20.0), 9.5, ("6C", "6S")).likely[0]
    '6C'
    """

    center: tuple[float, float]
    size: float = 0.0
    likely: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The detect-format entry."""
        return {"center": [round(self.center[0], 1), round(self.center[1], 1)]}


@dataclass
class Reading:
    """What :func:`vision.reader.read_cards` found, and how long it took (ms, without decoding)."""

    cards: list[CardRead] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    ms: float = 0.0
    width: int = 0
    height: int = 0

    def to_json(self, image_path: str | None = None, width: int | None = None,
                height: int | None = None) -> dict[str, Any]:
        """The ``crib detect`` JSON object for this reading."""
        return {
            "image": image_path,
            "width": self.width if width is None else width,
            "height": self.height if height is None else height,
            "cards": [c.to_json() for c in self.cards],
            "unreadable": [u.to_json() for u in self.unreadable],
            "ms": round(self.ms, 1),
        }
