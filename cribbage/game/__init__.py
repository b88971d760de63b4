"""The game: an event-driven state machine that follows a whole game of cribbage.

The state is the fold of the events a table sends (cards cut, laid, shown; go, muggins,
adjustments, corrections). :class:`Game` applies one event at a time and refuses what the
rules forbid with a :class:`~cribbage.errors.RuleError` naming the rule.

>>> game = Game(Settings.from_json({"variant": "six-card"}))
>>> game = game.apply({"type": "cut", "cards": {"A": "4H", "B": "9C"}})
>>> game.dealer, game.phase
('A', 'deal')
"""

from cribbage.game.events import META_TYPES, TABLE_TYPES, normalize
from cribbage.game.game import HANDLERS, Award, Game, resolve
from cribbage.game.settings import SKUNK_LINES, VARIANTS, Settings, Variant, skunk_lines

__all__ = [
    "HANDLERS",
    "META_TYPES",
    "SKUNK_LINES",
    "TABLE_TYPES",
    "VARIANTS",
    "Award",
    "Game",
    "Settings",
    "Variant",
    "normalize",
    "resolve",
    "skunk_lines",
]
