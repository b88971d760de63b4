"""The rules of cribbage: cards, the show, the play, the game. Pure Python, no I/O.

>>> from cribbage import parse_cards, parse_card, score_hand
>>> score_hand(parse_cards("5C 5D 5H JS"), parse_card("5S")).total
29
>>> from cribbage import Play, score_lay
>>> [i.kind for i in score_lay(parse_cards("7S 8H"))]
['fifteen']
"""

from cribbage.cards import PACK, Card, parse_card, parse_cards
from cribbage.errors import CardError, CribbageError, RuleError
from cribbage.items import Item
from cribbage.play import Award, Play, score_lay
from cribbage.show import ShowScore, score_hand

__all__ = [
    "PACK",
    "Award",
    "Card",
    "CardError",
    "CribbageError",
    "Item",
    "Play",
    "RuleError",
    "ShowScore",
    "parse_card",
    "parse_cards",
    "score_hand",
    "score_lay",
]
