"""Card codes used by the renderer: rank letter then suit letter, as in the rest of the project.

>>> ALL_CARDS[:3], len(ALL_CARDS)
(['AC', '2C', '3C'], 52)
>>> is_red("TD"), is_red("KS")
(True, False)
>>> rank_number("Q")
12
"""

from __future__ import annotations

from cribbage.cards import RANKS, SUITS
from vision.cnn import MODEL_SUITS

# the order the renderer draws cards from (suit by suit, in the network's class order), so that a
# seed renders the same scene and the same training set
ALL_CARDS: list[str] = [r + s for s in MODEL_SUITS for r in RANKS]


def is_red(card: str) -> bool:
    """True for hearts and diamonds."""
    return card[1] in "HD"


def rank_number(rank: str) -> int:
    """1 for an ace up to 13 for a king."""
    return RANKS.index(rank) + 1


def check_card(card: str) -> str:
    """Return ``card`` if it is a valid code, else raise ``ValueError``.

    >>> check_card("XX")
    Traceback (most recent call last):
    ...
    ValueError: not a card code: 'XX'
    """
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"not a card code: {card!r}")
    return card
