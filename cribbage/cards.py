"""Cards, ranks, suits and the notation every interface uses.

A card is written rank then suit: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` accepted for
``T``) and suit ``S H D C`` (lower case and ``♠ ♥ ♦ ♣`` accepted). The canonical form is
``TD``, ``5H``, ``JS``.

>>> parse_card("10d")
Card('TD')
>>> parse_card("5♥").value
5
>>> [str(c) for c in parse_cards("AS jh 10c")]
['AS', 'JH', 'TC']
>>> Card.from_index(Card("KC").index) == Card("KC")
True

Ranks run from ace (1, low only) to king (13); the pip value counts jacks, queens and kings
as ten. Each card has an ``index`` from 0 to 51, ``(rank - 1) * 4 + suit``, which the batch
scorer and the vision models use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import total_ordering

from cribbage.errors import CardError
from cribbage.spoken import NUMBER_WORDS

RANKS = "A23456789TJQK"
"""Rank letters, index 0 for the ace up to 12 for the king."""
SUITS = "SHDC"
"""Suit letters in index order: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("ace", *NUMBER_WORDS[2:11], "jack", "queen", "king")
"""Rank names in words, ace to king."""

_TOKEN = re.compile(r"^\s*(10|[2-9]|[atjqk])\s*([shdc♠♥♦♣♤♡♢♧])\s*$", re.IGNORECASE)
_SUIT_OF = {
    "s": 0,
    "h": 1,
    "d": 2,
    "c": 3,
    "♠": 0,
    "♥": 1,
    "♦": 2,
    "♣": 3,
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
}


@total_ordering
class Card:
    """One playing card, immutable and hashable; cards of a pack are shared instances.

    >>> Card("QH").rank, Card("QH").suit, Card("QH").value
    (12, 1, 10)
    >>> sorted([Card("KS"), Card("AH"), Card("5D")])
    [Card('AH'), Card('5D'), Card('KS')]
    """

    __slots__ = ("index", "name", "rank", "suit", "value")
    index: int
    rank: int
    suit: int
    value: int
    name: str

    def __new__(cls, token: str | int | Card) -> Card:
        if isinstance(token, Card):
            return token
        if isinstance(token, int) and not isinstance(token, bool):
            if not 0 <= token < 52:
                raise CardError(f"not a card index: {token}")
            return _PACK[token]
        return parse_card(token)

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        rank, suit = index // 4 + 1, index % 4
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "value", min(rank, 10))
        object.__setattr__(card, "name", RANKS[rank - 1] + SUITS[suit])
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with ``index`` (0 = ``AS`` … 51 = ``KC``)."""
        return cls(index)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of ``rank`` (1–13) and ``suit`` (0–3)."""
        if not (1 <= rank <= 13 and 0 <= suit <= 3):
            raise CardError(f"no card of rank {rank} and suit {suit}")
        return _PACK[(rank - 1) * 4 + suit]

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card({self.name!r})"

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, as a page shows it: ``'10♥'``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def words(self) -> str:
        """The card in words: ``'five of hearts'``."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"


_PACK: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
PACK: tuple[Card, ...] = _PACK
"""All 52 cards in index order."""


def parse_card(token: str) -> Card:
    """Read one card in any accepted notation; raise :class:`CardError` naming the token.

    >>> parse_card("th")
    Card('TH')
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    cribbage.errors.CardError: not a card: '1H' (write rank then suit, like 5H, TD or 10♦)
    """
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(f"not a card: {token!r}")
    match = _TOKEN.match(token)
    if match is None:
        raise CardError(f"not a card: {token!r} (write rank then suit, like 5H, TD or 10♦)")
    rank_text, suit_text = match.groups()
    rank = 10 if rank_text == "10" else RANKS.index(rank_text.upper()) + 1
    return _PACK[(rank - 1) * 4 + _SUIT_OF[suit_text.lower()]]


def parse_cards(text: str | Iterable[str | Card], *, unique: bool = True) -> list[Card]:
    """Read several cards from a string (spaces or commas between) or an iterable of tokens.

    With ``unique`` (the default) a card given twice is an error.

    >>> parse_cards("5C,5D 5H")
    [Card('5C'), Card('5D'), Card('5H')]
    >>> parse_cards("5C 5c")
    Traceback (most recent call last):
    ...
    cribbage.errors.CardError: 5C is given twice
    """
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    cards = [parse_card(t) for t in tokens if not (isinstance(t, str) and t == "")]
    if unique:
        require_distinct(cards)
    return cards


def require_distinct(cards: Sequence[Card]) -> None:
    """Raise :class:`CardError` if any card appears twice.

    >>> require_distinct([Card("AS"), Card("AH")])
    """
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"{card} is given twice")
            seen.add(card)


def card_names(cards: Iterable[Card]) -> list[str]:
    """The canonical names of ``cards``: ``['5C', 'JS']``."""
    return [c.name for c in cards]
