"""The coach: exact discard advice with the crib, and a pegging figure beside it.

>>> from cribbage.cards import parse_cards
>>> advice = advise_discards(parse_cards("5H 5S JD QC 2H 9S"), "pone")
>>> [c.name for c in advice.options[0].keep]
['5H', '5S', 'JD', 'QC']
"""

from cribbage.coach.discard import MAX_TOP, ROLES, DiscardAdvice, DiscardOption, advise_discards

__all__ = ["MAX_TOP", "ROLES", "DiscardAdvice", "DiscardOption", "advise_discards"]
