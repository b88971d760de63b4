"""The players' names the companion gives when nobody names them: one list for the demo's game
(``crib serve --demo``, its first two) and for ``crib track`` (as many as the variant has seats),
so the demo and a tracked video call the same seat by the same name. The list is the engine's
(:data:`cribbage.game.settings.PLAYER_NAMES`), which the page's New tab offers too.

>>> PLAYER_NAMES[:2]
('Ann', 'Bob')
>>> default_players(3), default_players(0), default_players(9)
(['Ann', 'Bob', 'Cat'], [], ['Ann', 'Bob', 'Cat', 'Dan'])
"""

from __future__ import annotations

from cribbage.game.settings import PLAYER_NAMES  # seat A's player first, then B, C and D

__all__ = ["PLAYER_NAMES", "default_players"]


def default_players(seats: int) -> list[str]:
    """The first ``seats`` names (at most the four there are; none for a count below one)."""
    return list(PLAYER_NAMES[: max(0, seats)])
