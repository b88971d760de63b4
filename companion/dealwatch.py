"""The table watched while no game is in progress: a deal seen there starts a game.

``crib serve --camera`` (not the demo) with no game in progress (none yet, or the newest is
over) feeds its frames to the tracker alone, through a :class:`DealWatch`. The cards lying when
the watch begins (the last game's, or whatever the table held when the camera started) are
learnt first, in silence, until the whole table has lain still once; a card laid while any of
them still lies is theirs too (a crib turned up after the winning peg). Once they are all gone,
the first card read face up (the starter, or the first card of a cut for deal) is a deal begun:
:meth:`DealWatch.feed` answers it, and the camera service starts a game with
:func:`next_game_settings` and follows it (:mod:`companion.camera`).

>>> from vision.track import Tracker, Zones
>>> watch = DealWatch(Tracker(Zones.default(2), reader=lambda image: ([], [])), next_game_settings(None))
>>> watch.words()
'looking at the table: the next deal starts a game of Ann v Bob'
>>> next_game_settings({"settings": {"players": ["Cy", "Dee", "Eve"], "variant": "three-player"}})
{'players': ['Cy', 'Dee', 'Eve'], 'variant': 'three-player'}
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from companion.names import default_players
from vision.track import Sighting, Tracker

__all__ = ["DealWatch", "next_game_settings", "players_words"]


def next_game_settings(last: dict[str, Any] | None) -> dict[str, Any]:
    """The settings of a game the camera starts: those of the last game (``last``, its state:
    its players' names, variant, target, counting and colours), or two players of the default
    names (:mod:`companion.names`) when there was none."""
    settings = (last or {}).get("settings")
    if isinstance(settings, dict) and settings.get("players"):
        return dict(settings)
    return {"players": default_players(2)}


def players_words(settings: dict[str, Any]) -> str:
    """The game's sides as the page says them, by the engine's sides
    (:attr:`cribbage.game.settings.Settings.sides`).

    >>> players_words({"players": ["Ann", "Bob", "Cat", "Dan"], "variant": "four-player"})
    'Ann & Cat v Bob & Dan'
    """
    from cribbage.errors import CribbageError
    from cribbage.game.settings import Settings

    try:
        return " v ".join(name for _, name in Settings.from_json(settings).sides)
    except CribbageError:
        return " v ".join(str(n) for n in settings.get("players") or [])


class DealWatch:
    """Watches the table through ``tracker`` (no follower) for the first card of a deal; the game
    it would start has ``settings``, its sides said once as ``players`` (:func:`players_words`),
    not on every frame. Begun afresh: the tracker reads the whole table again."""

    def __init__(self, tracker: Tracker, settings: dict[str, Any]) -> None:
        self.tracker = tracker
        self.settings = settings
        self.players = players_words(settings)
        self.learnt = False  # the table as the watch began has been read once, lying still
        tracker.forget()

    def leftovers(self) -> int:
        """Cards that lay on the table when the watch began (or were laid beside them) and lie
        there still."""
        return sum(1 for c in self.tracker.cards if c.visible and c.deal < self.tracker.deal)

    def feed(self, image: npt.NDArray[np.uint8], number: int,
             lores: npt.NDArray[np.uint8] | None = None) -> Sighting | None:
        """Feed frame ``number``; the card that begins a deal, if this frame read one."""
        found = self.tracker.feed(image, number, lores)
        if self.tracker.restarted:  # a source come back or begun again: the table learnt anew
            self.tracker.restarted = False
            self.learnt = False
        if not self.learnt:
            # still for longer than a look waits to begin, nothing left to read: the table is read
            if self.tracker.quiet() > self.tracker.settle + 1:
                self.learnt = True
                self.tracker.new_deal()  # what lies now is the last game's, forgotten once gone
            return None
        seen = next((s for s in found if isinstance(s, Sighting)), None)
        if seen is not None and self.leftovers():
            self.tracker.new_deal()  # laid beside the last game's cards: theirs, cleared with them
            return None
        return seen

    def words(self) -> str:
        """What the watch waits for, in players' words."""
        if not self.learnt:
            return f"looking at the table: the next deal starts a game of {self.players}"
        if self.leftovers():
            return f"the last game's cards lie on the table: once it is cleared, the next deal " \
                   f"starts a game of {self.players}"
        return f"waiting for a deal: the first card turned up starts a game of {self.players}"
