"""Why a discard ranks where it does, in words: what the kept cards already score before the
starter, and what the crib gets and is likely worth.

>>> from cribbage.cards import parse_cards
>>> [str(i) for i in kept_items(parse_cards("5H 5S JD QC"))]
['fifteen (5H JD) 2', 'fifteen (5H QC) 2', 'fifteen (5S JD) 2', 'fifteen (5S QC) 2', 'pair (5H 5S) 2']
>>> from cribbage.coach import advise_discards
>>> best = advise_discards(parse_cards("5H 5S JD QC 2H 9S"), "dealer").options[0]
>>> why(best, "dealer")
'Keeps 5♥ 5♠ J♦ Q♣: 10 before the starter (four fifteens and a pair), 12.7 likely with it. \
The crib gets 2♥ 9♠ (yours): likely worth 4.2.'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any

from cribbage.cards import Card
from cribbage.items import Item
from cribbage.spoken import join_phrases, number_words, run_length_words

if TYPE_CHECKING:
    from cribbage.coach.discard import DiscardOption

__all__ = ["explain", "kept_items", "summary", "why"]


def kept_items(cards: Sequence[Card]) -> tuple[Item, ...]:
    """The points ``cards`` score among themselves, before any starter: fifteens, pairs, runs
    (the longest, each way it can be made) and a flush of them all (a hand's flush needs no
    starter). Nobs waits for the starter, so it is never here.

    >>> from cribbage.cards import parse_cards
    >>> [str(i) for i in kept_items(parse_cards("3C 4C 5C 5D"))]
    ['pair (5C 5D) 2', 'run (3C 4C 5C) 3', 'run (3C 4C 5D) 3']
    >>> [str(i) for i in kept_items(parse_cards("2H 7H 9H KH"))]
    ['flush (2H 7H 9H KH) 4']
    """
    items: list[Item] = []
    for size in range(2, len(cards) + 1):
        for subset in combinations(cards, size):
            if sum(c.value for c in subset) == 15:
                items.append(Item("fifteen", subset, 2))
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            items.append(Item("pair", (a, b), 2))
    for size in range(len(cards), 2, -1):
        runs = [s for s in combinations(cards, size) if _is_run(s)]
        if runs:
            items.extend(Item("run", tuple(sorted(s, key=lambda c: c.rank)), size) for s in runs)
            break
    if len(cards) >= 3 and len({c.suit for c in cards}) == 1:
        items.append(Item("flush", tuple(cards), len(cards)))
    return tuple(items)


def _is_run(cards: Sequence[Card]) -> bool:
    ranks = sorted(c.rank for c in cards)
    return all(b == a + 1 for a, b in pairwise(ranks))


_KIND = {2: "a pair", 6: "a pair royal", 12: "a double pair royal"}
_RUNS = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}


def summary(items: Sequence[Item]) -> str:
    """The items in a few words: ``'four fifteens and a pair'``.

    >>> from cribbage.cards import parse_cards
    >>> summary(kept_items(parse_cards("3C 4C 5C 5D"))), summary(kept_items(parse_cards("5H 5S 5C TD")))
    ('a double run of three', 'four fifteens and a pair royal')
    """
    phrases: list[str] = []
    fifteens = sum(1 for i in items if i.kind == "fifteen")
    if fifteens:
        phrases.append("a fifteen" if fifteens == 1 else f"{number_words(fifteens)} fifteens")
    runs = [i for i in items if i.kind == "run"]
    in_runs = {c.rank for r in runs for c in r.cards}
    by_rank: dict[int, int] = {}
    for i in items:
        if i.kind == "pair" and i.cards[0].rank not in in_runs:
            by_rank[i.cards[0].rank] = by_rank.get(i.cards[0].rank, 0) + i.points
    pairs = sorted(by_rank.values())
    if pairs == [2, 2]:
        phrases.append("two pairs")
    else:
        phrases.extend(_KIND[p] for p in pairs)
    if runs:
        name = _RUNS.get(len(runs), f"{number_words(len(runs))} runs")
        phrases.append(f"{name} of {run_length_words(runs[0].points)}")
    phrases.extend(f"a flush of {run_length_words(i.points)}" for i in items if i.kind == "flush")
    return join_phrases(phrases)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def why(option: DiscardOption, role: str | None) -> str:
    """One choice in words: the kept cards' points before the starter and their likely show, and
    (with a seat) what the crib gets, whose it is and its likely worth."""
    items = kept_items(option.keep)
    points = sum(i.points for i in items)
    before = f"{points} before the starter ({summary(items)})" if items else "nothing before the starter"
    text = f"Keeps {_cards(option.keep)}: {before}, {option.hand:.1f} likely with it."
    if role is None:
        return text
    thrown = kept_items(option.discard) if len(option.discard) > 1 else ()
    own = f"{summary(thrown)}, " if thrown else ""
    whose = "yours" if role == "dealer" else "your opponent's"
    return f"{text} The crib gets {_cards(option.discard)} ({own}{whose}): likely worth {option.crib:.1f}."


def explain(option: DiscardOption, role: str | None) -> dict[str, Any]:
    """``option.as_dict()`` with ``kept_points`` and ``kept_items`` (the kept cards' points
    before the starter) and ``why`` (:func:`why`): an option as the page's coach shows it."""
    items = kept_items(option.keep)
    return {
        **option.as_dict(),
        "kept_points": sum(i.points for i in items),
        "kept_items": [i.to_json() for i in items],
        "why": why(option, role),
    }
