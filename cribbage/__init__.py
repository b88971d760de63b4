"""The rules of cribbage: cards, the show, the play, the game. Pure Python, no I/O.

>>> from cribbage import parse_cards, parse_card, score_hand
>>> score_hand(parse_cards("5C 5D 5H JS"), parse_card("5S")).total
29
"""

from cribbage.cards import PACK, Card, parse_card, parse_cards
from cribbage.errors import CardError, CribbageError, RuleError

__all__ = ["PACK", "Card", "CardError", "CribbageError", "RuleError", "parse_card", "parse_cards"]
