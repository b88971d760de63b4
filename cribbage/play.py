"""The play: laying cards in turn, the running count, go, last card and thirty-one.

Seats are numbers in turn order, ``0`` leading (in two-handed cribbage, the pone). Each card
laid scores for the current series only: fifteen, thirty-one, pairs (2, 6, 12) and runs in any
order. A seat that cannot lay says go; when every seat has said go the last to lay pegs one
for last card (none at 31), the count restarts and the seat after the last to lay leads.

>>> from cribbage.cards import parse_card as c
>>> play = Play(2)
>>> _ = play.lay(0, c("4S")); _ = play.lay(1, c("5H"))
>>> [str(a) for a in play.lay(0, c("3C"))]
['A: run (4S 5H 3C) 3']
>>> play.count, seat_letter(play.next_seat)
(12, 'B')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cribbage.cards import Card
from cribbage.errors import RuleError
from cribbage.items import Item

__all__ = ["Award", "Entry", "Play", "score_lay", "seat_letter", "seat_number"]

_OF_A_KIND_POINTS = {2: 2, 3: 6, 4: 12}


def seat_letter(seat: int) -> str:
    """The letter of a seat number: ``seat_letter(0) == 'A'``."""
    return chr(ord("A") + seat)


def seat_number(letter: str) -> int:
    """The seat number of a letter (either case): ``seat_number('b') == 1``.

    >>> seat_number("?")
    Traceback (most recent call last):
    ...
    cribbage.errors.RuleError: not a seat: '?' (seats are letters from A)
    """
    if len(letter) != 1 or not letter.isalpha() or not letter.isascii():
        raise RuleError(f"not a seat: {letter!r} (seats are letters from A)", rule="seat")
    return ord(letter.upper()) - ord("A")


def score_lay(series: Sequence[Card]) -> list[Item]:
    """The items the last card of ``series`` scores (the series includes that card).

    >>> from cribbage.cards import parse_cards
    >>> [str(i) for i in score_lay(parse_cards("4S 5H 3C 3D"))]
    ['fifteen (4S 5H 3C 3D) 2', 'pair (3C 3D) 2']
    >>> score_lay(parse_cards("5S 8H 5C"))
    []
    """
    items: list[Item] = []
    if not series:
        return items
    count = sum(c.value for c in series)
    if count == 15:
        items.append(Item("fifteen", tuple(series), 2))
    elif count == 31:
        items.append(Item("thirty-one", tuple(series), 2))

    last = series[-1]
    same = 1
    while same < len(series) and series[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(Item("pair", tuple(series[-same:]), _OF_A_KIND_POINTS[same]))

    for length in range(len(series), 2, -1):
        tail = series[-length:]
        ranks = {c.rank for c in tail}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            items.append(Item("run", tuple(tail), length))
            break
    return items


@dataclass(frozen=True, slots=True)
class Award:
    """Points pegged by ``seat`` for ``item``."""

    seat: int
    item: Item

    def __str__(self) -> str:
        return f"{seat_letter(self.seat)}: {self.item}"


@dataclass(slots=True)
class Entry:
    """One card laid: who laid it, the count after it and what it scored (a go point included)."""

    seat: int
    card: Card
    count: int
    items: list[Item] = field(default_factory=list)

    @property
    def points(self) -> int:
        """The points this card earned."""
        return sum(i.points for i in self.items)

    def to_json(self) -> dict[str, Any]:
        """As ``crib peg --json`` prints it."""
        return {
            "seat": seat_letter(self.seat),
            "card": self.card.name,
            "count": self.count,
            "points": self.points,
            "items": [i.to_json() for i in self.items],
        }


class Play:
    """The play of one deal between ``seats`` seats, ``lead`` laying first.

    ``single_series`` is the five-card game's rule: the play stops at the first 31 or go.
    Every method that changes the play checks the rules first and raises
    :class:`~cribbage.errors.RuleError` without changing anything.

    >>> from cribbage.cards import parse_card as c
    >>> play = Play(2)
    >>> _ = play.lay(0, c("TS")); _ = play.lay(1, c("KH")); _ = play.lay(0, c("9D"))
    >>> play.lay(1, c("5C"))
    Traceback (most recent call last):
    ...
    cribbage.errors.RuleError: 5C would take the count to 34, past 31
    >>> [str(a) for a in play.go(1)], seat_letter(play.next_seat)
    ([], 'A')
    >>> [str(a) for a in play.go(0)], play.count, seat_letter(play.next_seat)
    (['A: go (9D) 1'], 0, 'B')
    """

    def __init__(self, seats: int = 2, *, lead: int = 0, single_series: bool = False) -> None:
        if not 2 <= seats <= 8:
            raise RuleError(f"the play needs 2 to 8 seats, not {seats}", rule="seats")
        if not 0 <= lead < seats:
            raise RuleError(f"no seat {seat_letter(lead)} among {seats}", rule="seat")
        self.seats = seats
        self.single_series = single_series
        self.entries: list[Entry] = []
        self.series: list[Card] = []
        self.gone: set[int] = set()
        self.next_seat: int | None = lead
        self.last_seat: int | None = None
        self.over = False
        self.series_number = 0

    @property
    def count(self) -> int:
        """The running count of the current series."""
        return sum(c.value for c in self.series)

    @property
    def laid(self) -> list[Card]:
        """Every card laid so far in this play."""
        return [e.card for e in self.entries]

    def totals(self) -> dict[int, int]:
        """Points pegged in the play so far, per seat."""
        points = dict.fromkeys(range(self.seats), 0)
        for entry in self.entries:
            points[entry.seat] += entry.points
        return points

    def can_lay(self, card: Card) -> bool:
        """Whether ``card`` fits under 31 in the current series."""
        return not self.over and self.count + card.value <= 31

    def _check_turn(self, seat: int, action: str) -> None:
        if not 0 <= seat < self.seats:
            raise RuleError(f"no seat {seat_letter(seat)} in a {self.seats}-seat play", rule="seat")
        if self.over:
            raise RuleError(f"the play is over; {seat_letter(seat)} cannot {action}", rule="phase")
        if seat != self.next_seat:
            nxt = seat_letter(self.next_seat) if self.next_seat is not None else "nobody"
            raise RuleError(
                f"{seat_letter(seat)} cannot {action} out of turn: it is {nxt}'s turn "
                "to lay a card or say go",
                rule="turn",
            )

    def lay(self, seat: int, card: Card) -> list[Award]:
        """``seat`` lays ``card``; returns what it pegs."""
        self._check_turn(seat, f"lay {card}")
        if card in self.laid:
            raise RuleError(f"{card} has already been laid in this play", rule="card-seen")
        if self.count + card.value > 31:
            raise RuleError(
                f"{card} would take the count to {self.count + card.value}, past 31",
                rule="thirty-one",
            )
        self.series.append(card)
        items = score_lay(self.series)
        self.entries.append(Entry(seat, card, self.count, list(items)))
        self.last_seat = seat
        awards = [Award(seat, i) for i in items]
        if self.count == 31:
            self._end_series()
        else:
            self.next_seat = self._after(seat)
        return awards

    def go(self, seat: int) -> list[Award]:
        """``seat`` says go (it cannot lay without passing 31, or holds no card)."""
        self._check_turn(seat, "say go")
        self.gone.add(seat)
        following = self._after(seat)
        if following is not None:
            self.next_seat = following
            return []
        return self._last_card()

    def finish(self) -> list[Award]:
        """End the play: the last card laid pegs one if its series was left open below 31."""
        if self.over:
            return []
        awards = self._last_card()
        self.over = True
        self.next_seat = None
        return awards

    def _after(self, seat: int) -> int | None:
        for step in range(1, self.seats + 1):
            candidate = (seat + step) % self.seats
            if candidate not in self.gone:
                return candidate
        return None

    def _last_card(self) -> list[Award]:
        awards: list[Award] = []
        if self.series and self.last_seat is not None:
            card = self.series[-1]
            item = Item("go", (card,), 1)
            self.entries[-1].items.append(item)
            awards.append(Award(self.last_seat, item))
            self._end_series()
        else:
            self.over = True
            self.next_seat = None
        return awards

    def _end_series(self) -> None:
        self.series = []
        self.gone = set()
        self.series_number += 1
        if self.single_series or self.last_seat is None:
            self.over = True
            self.next_seat = None
        else:
            self.next_seat = (self.last_seat + 1) % self.seats
