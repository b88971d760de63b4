"""The show: counting a hand or the crib with the starter, every point itemised.

The starter counts as a fifth card. Fifteens, pairs and runs may reuse cards; a flush needs
every hand card of one suit (the crib only counts a flush when the starter matches too); his
nobs is a jack in the hand of the starter's suit. A three-card hand is the five-card game's.

>>> from cribbage.cards import parse_cards, parse_card
>>> score = score_hand(parse_cards("5C 5D 5H JS"), parse_card("5S"))
>>> score.total
29
>>> score.spoken.split(", ")[-1]
'a double pair royal is twenty-eight and his nobs is twenty-nine'
>>> score_hand(parse_cards("4H 5S 6D QC"), parse_card("KS")).spoken
'fifteen two, fifteen four, fifteen six and a run of three is nine'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any

from cribbage.cards import PACK, Card, require_distinct
from cribbage.errors import CardError
from cribbage.items import Item
from cribbage.spoken import join_phrases, number_words, run_length_words

__all__ = ["ShowScore", "each_starter", "score_hand", "show_total", "starter_groups"]

_SUBSETS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(s for k in range(2, n + 1) for s in combinations(range(n), k)) for n in (4, 5)
}
_PAIRS: dict[int, tuple[tuple[int, int], ...]] = {n: tuple(combinations(range(n), 2)) for n in (4, 5)}
_OF_A_KIND = {2: "a pair", 3: "a pair royal", 4: "a double pair royal"}


@dataclass(frozen=True, slots=True)
class ShowScore:
    """What a hand or crib counts in the show: the total, the items and the spoken count."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[Item, ...] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        """All the points of the items."""
        return sum(i.points for i in self.items)

    @property
    def spoken(self) -> str:
        """The count said aloud: ``'fifteen two, fifteen four and a pair is six'``."""
        return spoken_count(self.items)

    def points_of(self, kind: str) -> int:
        """Points from one kind of item: ``score.points_of("fifteen")``."""
        return sum(i.points for i in self.items if i.kind == kind)

    def to_json(self) -> dict[str, Any]:
        """``{"total": ..., "items": [...], "spoken": ...}`` as ``crib score --json`` prints."""
        return {
            "total": self.total,
            "items": [i.to_json() for i in self.items],
            "spoken": self.spoken,
        }


def _check(hand: Sequence[Card], starter: Card, crib: bool) -> None:
    sizes = (4,) if crib else (3, 4)
    if len(hand) not in sizes:
        what = "a crib holds 4 cards" if crib else "a hand holds 4 cards (3 in the five-card game)"
        raise CardError(f"{what}, not {len(hand)}")
    require_distinct([*hand, starter])


def score_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> ShowScore:
    """Count ``hand`` (4 cards, or 3 in the five-card game) or the crib with the ``starter``.

    >>> from cribbage.cards import parse_cards, parse_card
    >>> [str(i) for i in score_hand(parse_cards("2H 3H 4H JC"), parse_card("4C")).items]
    ['fifteen (2H 3H JC) 2', 'pair (4H 4C) 2', 'run (2H 3H 4H) 3', 'run (2H 3H 4C) 3', 'nobs (JC) 1']
    """
    _check(hand, starter, crib)
    cards = (*hand, starter)
    n = len(cards)
    items: list[Item] = []

    values = [c.value for c in cards]
    for subset in _SUBSETS[n]:
        if sum(values[i] for i in subset) == 15:
            items.append(Item("fifteen", tuple(cards[i] for i in subset), 2))

    for i, j in _PAIRS[n]:
        if cards[i].rank == cards[j].rank:
            items.append(Item("pair", (cards[i], cards[j]), 2))

    items.extend(_runs(cards))

    suit = hand[0].suit
    if all(c.suit == suit for c in hand):
        if starter.suit == suit:
            items.append(Item("flush", cards, n))
        elif not crib:
            items.append(Item("flush", tuple(hand), n - 1))

    for card in hand:
        if card.rank == 11 and card.suit == starter.suit:
            items.append(Item("nobs", (card,), 1))
            break
    return ShowScore(tuple(hand), starter, crib, tuple(items))


def _runs(cards: Sequence[Card]) -> list[Item]:
    """Every run of the longest length (3 or more) among ``cards``."""
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    best: list[int] = []
    current: list[int] = []
    for rank in range(1, 15):
        if rank in by_rank:
            current.append(rank)
        else:
            if len(current) > len(best):
                best = current
            current = []
    if len(best) < 3:
        return []
    length = len(best)
    return [Item("run", combo, length) for combo in product(*(by_rank[r] for r in best))]


def each_starter(cards: Sequence[Card], *, crib: bool = False) -> list[ShowScore]:
    """The count with each possible starter when none is chosen, best first (ties in the order
    the starters come): with 5 cards, each of them as the starter of the other four (a hand
    photographed with its starter, none lying apart); with 4 (or 3), each card of the pack not
    among them.

    >>> from cribbage.cards import parse_cards
    >>> [(s.starter.name, s.total) for s in each_starter(parse_cards("5C 5D 5H JS"))][:5]
    [('5S', 29), ('JH', 22), ('JD', 22), ('JC', 22), ('TS', 21)]
    >>> len(each_starter(parse_cards("5C 5D 5H JS")))
    48
    >>> [(s.starter.name, s.total) for s in each_starter(parse_cards("3C 4C 5C 6C KH"))][:2]
    [('KH', 12), ('3C', 8)]
    """
    require_distinct(cards)
    if len(cards) == 5:
        options = [score_hand([c for c in cards if c != s], s, crib=crib) for s in cards]
    elif len(cards) in (3, 4):
        options = [score_hand(cards, s, crib=crib) for s in PACK if s not in cards]
    else:
        raise CardError(f"{len(cards)} cards: give a hand of 4 (or 3), or a hand and its starter (5)")
    return sorted(options, key=lambda o: -o.total)


def starter_groups(options: Sequence[ShowScore]) -> list[tuple[int, list[str]]]:
    """The starters of :func:`each_starter`'s ``options`` grouped by their count, best first,
    as the page's Photo tab and ``crib check`` show them.

    >>> from cribbage.cards import parse_cards
    >>> starter_groups(each_starter(parse_cards("5C 5D 5H JS")))[:2]
    [(29, ['5S']), (22, ['JH', 'JD', 'JC'])]
    """
    groups: dict[int, list[str]] = {}
    for option in options:
        groups.setdefault(option.total, []).append(option.starter.name)
    return list(groups.items())


def show_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The total alone, without building items; agrees with ``score_hand(...).total``.

    >>> from cribbage.cards import parse_cards, parse_card
    >>> show_total(parse_cards("5C 5D 5H JS"), parse_card("5S"))
    29
    """
    _check(hand, starter, crib)
    cards = (*hand, starter)
    n = len(cards)
    values = [c.value for c in cards]
    points = 2 * sum(1 for s in _SUBSETS[n] if sum(values[i] for i in s) == 15)
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    points += sum(k * (k - 1) for k in counts.values())
    run, mult, best, best_mult = 0, 1, 0, 0
    for rank in range(1, 15):
        k = counts.get(rank, 0)
        if k:
            run, mult = run + 1, mult * k
            continue
        if run > best:
            best, best_mult = run, mult
        run, mult = 0, 1
    if best >= 3:
        points += best * best_mult
    suit = hand[0].suit
    if all(c.suit == suit for c in hand):
        if starter.suit == suit:
            points += n
        elif not crib:
            points += n - 1
    if any(c.rank == 11 and c.suit == starter.suit for c in hand):
        points += 1
    return points


def spoken_count(items: Sequence[Item]) -> str:
    """The running count as players say it, from a show's items.

    Runs that share cards are said as one (a double run, a triple run, a double double run)
    together with the pairs inside them.

    >>> spoken_count([])
    'nineteen (no points)'
    """
    if not items:
        return "nineteen (no points)"
    phrases: list[str] = []
    running = 0

    def say(phrase: str, points: int) -> None:
        nonlocal running
        running += points
        phrases.append(f"{phrase} is {number_words(running)}")

    for item in items:
        if item.kind == "fifteen":
            running += item.points
            phrases.append(f"fifteen {number_words(running)}")

    runs = [i for i in items if i.kind == "run"]
    run_ranks = {c.rank for r in runs for c in r.cards}
    groups: dict[int, int] = {}
    for item in items:
        if item.kind == "pair" and item.cards[0].rank not in run_ranks:
            groups[item.cards[0].rank] = groups.get(item.cards[0].rank, 0) + item.points
    lone = sorted(groups.values())
    if lone:
        if lone == [2, 2]:
            phrase = "two pairs"
        else:
            kinds = {2: 2, 6: 3, 12: 4}
            phrase = " and ".join(_OF_A_KIND[kinds[p]] for p in lone)
        say(phrase, sum(lone))

    if runs:
        length = runs[0].points
        in_run_pairs = sum(i.points for i in items if i.kind == "pair" and i.cards[0].rank in run_ranks)
        name = {1: "a run of", 2: "a double run of", 3: "a triple run of", 4: "a double double run of"}
        say(
            f"{name.get(len(runs), f'{len(runs)} runs of')} {run_length_words(length)}",
            length * len(runs) + in_run_pairs,
        )

    for item in items:
        if item.kind == "flush":
            say(f"a flush of {run_length_words(item.points)}", item.points)
        elif item.kind == "nobs":
            say("his nobs", item.points)
    return join_phrases(phrases)
