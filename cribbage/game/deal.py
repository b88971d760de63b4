"""One deal: the cards known so far, the starter, the play and the show.

The deal knows what the table has shown it: whole hands when they are entered, or only the
cards laid when a camera watches. Each card has one owner in a deal (a seat, the crib or the
starter), so a card seen twice is caught at once.

>>> from cribbage.cards import parse_cards
>>> deal = Deal(number=1, dealer=1, seats=2, kept=4)
>>> deal.pone, deal.show_order
(0, [0, 1])
>>> deal.dealt[0] = parse_cards("5C 5D JS 6H 2C 9D")
>>> deal.discards[0] = parse_cards("2C 9D")
>>> [c.name for c in deal.kept_hand(0)]
['5C', '5D', 'JS', '6H']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cribbage.cards import Card
from cribbage.play import Play

__all__ = ["Deal"]


@dataclass
class Deal:
    """The state of one deal. Seat numbers are absolute (0 = A); the play numbers from the pone."""

    number: int
    dealer: int
    seats: int
    kept: int
    dealt: dict[int, list[Card]] = field(default_factory=dict)
    kept_given: dict[int, list[Card]] = field(default_factory=dict)
    discards: dict[int, list[Card]] = field(default_factory=dict)
    crib_card: Card | None = None
    starter: Card | None = None
    play: Play | None = None
    laid: dict[int, list[Card]] = field(default_factory=dict)
    owner: dict[Card, str] = field(default_factory=dict)
    shows: list[dict[str, Any]] = field(default_factory=list)
    show_index: int = 0
    points: dict[str, dict[str, int]] = field(default_factory=dict)
    misdeal: bool = False

    @property
    def pone(self) -> int:
        """The seat after the dealer: it leads the play and counts first."""
        return (self.dealer + 1) % self.seats

    @property
    def show_order(self) -> list[int]:
        """Seats in the order they count, starting left of the dealer; the dealer last."""
        return [(self.dealer + k) % self.seats for k in range(1, self.seats + 1)]

    def play_seat(self, seat: int) -> int:
        """The play's seat number (0 = the pone, who leads) of an absolute seat."""
        return (seat - self.pone) % self.seats

    def table_seat(self, play_seat: int) -> int:
        """The absolute seat of a play seat number."""
        return (play_seat + self.pone) % self.seats

    def kept_hand(self, seat: int) -> list[Card] | None:
        """The cards ``seat`` keeps for the play and the show, when the deal knows them."""
        if seat in self.kept_given:
            return self.kept_given[seat]
        if seat in self.dealt and seat in self.discards:
            return [c for c in self.dealt[seat] if c not in self.discards[seat]]
        laid = self.laid.get(seat, [])
        if len(laid) == self.kept:
            return list(laid)
        return None

    def dealt_hand(self, seat: int) -> list[Card] | None:
        """The cards dealt to ``seat``, when the deal knows them: entered as dealt, or the kept
        hand and the discards entered apart (or the kept hand all laid in the play)."""
        if seat in self.dealt:
            return self.dealt[seat]
        kept = self.kept_hand(seat)
        if kept is not None and seat in self.discards:
            return [*kept, *self.discards[seat]]
        return None

    def left(self, seat: int) -> int:
        """How many cards ``seat`` still holds in the play."""
        return self.kept - len(self.laid.get(seat, []))

    def known_crib(self) -> list[Card]:
        """The crib cards known so far (discards and the card dealt to the crib)."""
        cards = [c for seat in sorted(self.discards) for c in self.discards[seat]]
        if self.crib_card is not None:
            cards.append(self.crib_card)
        return cards

    def add_points(self, side: str, category: str, points: int) -> None:
        """Add ``points`` to ``side`` under ``category`` (play, show, crib, heels, ...)."""
        bucket = self.points.setdefault(side, {})
        bucket[category] = bucket.get(category, 0) + points
