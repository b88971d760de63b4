"""Scripted deals for the deal videos: the golden deals, and game events turned into a script.

A *script* is a list of JSON-friendly actions that :func:`vision.synth.video.render_video` acts
out on a table seen from above (``deal``, ``starter``, ``play``, ``reset``, ``show``, ``crib``,
``clear``, ``hover``, ``pause``; see docs/vision-synth.md). :func:`script_from_events` turns a
game's events (``crib game event`` JSON, two players, hands unknown: as a camera sees the table)
into such a script, replaying them through :class:`cribbage.game.Game` to find where each
series of the play ends.

>>> actions = script_from_events(GOLDEN_DEAL_1)
>>> [a["do"] for a in actions][:4]
['deal', 'starter', 'play', 'play']
>>> sum(a["do"] == "reset" for a in actions)
2
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cribbage.game import Game, Settings

Event = dict[str, Any]
Action = dict[str, Any]

# Deal 1: A deals, B (the pone) leads. The starter is a jack: his heels, 2 for A.
# Series 1: B TS 10, A KD 20, B 9C 29, A says go, B AH 30, B says go: B pegs 1 for last card.
# Series 2: A 7D 7, B 8S 15 (fifteen), A 9D 24 (run 7-8-9), B is out, A 7C 31 (thirty-one).
# Each go is said by the seat whose turn it is and the other seat lays next, so the engine
# infers it when the go events are left out (the camera sees no go).
GOLDEN_DEAL_1: list[Event] = [
    {"type": "dealer", "seat": "A"},
    {"type": "starter", "card": "JH"},
    {"type": "play", "seat": "B", "card": "TS"},
    {"type": "play", "seat": "A", "card": "KD"},
    {"type": "play", "seat": "B", "card": "9C"},
    {"type": "go", "seat": "A"},
    {"type": "play", "seat": "B", "card": "AH"},
    {"type": "go", "seat": "B"},
    {"type": "play", "seat": "A", "card": "7D"},
    {"type": "play", "seat": "B", "card": "8S"},
    {"type": "play", "seat": "A", "card": "9D"},
    {"type": "play", "seat": "A", "card": "7C"},
    {"type": "show", "seat": "B", "cards": ["TS", "9C", "AH", "8S"]},
    {"type": "show", "seat": "A", "cards": ["KD", "7D", "9D", "7C"]},
    {"type": "crib", "cards": ["5C", "5D", "QS", "2H"]},
]

# Deal 2: B deals, A leads. Series 1: A 4H 4, B 4D 8 (pair), A 7S 15 (fifteen), B KC 25,
# A says go, B 3S 28, B says go: B pegs 1. Series 2: A TD 10, B 9H 19, A QH 29: the last card
# of the play, 1 to A.
GOLDEN_DEAL_2: list[Event] = [
    {"type": "starter", "card": "5S"},
    {"type": "play", "seat": "A", "card": "4H"},
    {"type": "play", "seat": "B", "card": "4D"},
    {"type": "play", "seat": "A", "card": "7S"},
    {"type": "play", "seat": "B", "card": "KC"},
    {"type": "go", "seat": "A"},
    {"type": "play", "seat": "B", "card": "3S"},
    {"type": "go", "seat": "B"},
    {"type": "play", "seat": "A", "card": "TD"},
    {"type": "play", "seat": "B", "card": "9H"},
    {"type": "play", "seat": "A", "card": "QH"},
    {"type": "show", "seat": "A", "cards": ["4H", "7S", "TD", "QH"]},
    {"type": "show", "seat": "B", "cards": ["4D", "KC", "3S", "9H"]},
    {"type": "crib", "cards": ["6D", "6C", "2S", "AC"]},
]


def golden_events(with_go: bool = True) -> list[Event]:
    """Both golden deals as one game's events (deal 1 then deal 2); ``with_go=False`` leaves the
    go events out, as a camera sees the table.

    >>> len(golden_events()), len(golden_events(with_go=False))
    (29, 25)
    """
    events = [dict(e) for e in GOLDEN_DEAL_1 + GOLDEN_DEAL_2]
    return events if with_go else [e for e in events if e["type"] != "go"]


def new_game() -> Game:
    """A two-player game (Ann v Bob) with the default settings, as the golden deals are played."""
    return Game(Settings.from_json({"players": "Ann,Bob"}))


def _series_index(game: Game) -> int:
    """The number of the series the card just laid belongs to."""
    deal = game.deal
    assert deal is not None and deal.play is not None
    play = deal.play
    return play.series_number if play.series else play.series_number - 1


def script_from_events(
    events: Sequence[Event], reset: str = "turn-down", game: Game | None = None
) -> list[Action]:
    """The video script of a two-player game's events (dealer, starter, play, go, show, crib).

    The events are replayed through the game (from ``game``, a new two-player game by default;
    a refused event raises :class:`cribbage.errors.RuleError`). Go events are not acted out (a
    camera does not see them). A ``reset`` action is inserted after each finished series of the
    play (after a 31, after a go, and after the last series, before the show); it carries
    ``"mode": reset`` (``"turn-down"`` or ``"keep"``); ``reset="none"`` inserts none. After a
    crib the table is cleared; the next deal starts with a ``deal`` action when more events follow.

    >>> [a["do"] for a in script_from_events(GOLDEN_DEAL_1, reset="none")][-4:]
    ['show', 'show', 'crib', 'clear']
    """
    if reset not in ("turn-down", "keep", "none"):
        raise ValueError(f"reset must be turn-down, keep or none, not {reset!r}")
    game = game or new_game()
    actions: list[Action] = []
    series: int | None = None  # the series of the last card laid, while one is open
    dealt = False

    def end_series() -> None:
        nonlocal series
        if series is not None and reset != "none":
            actions.append({"do": "reset", "mode": reset})
        series = None

    for event in events:
        kind = event["type"]
        game = game.apply(event)
        if kind == "dealer":
            actions.append({"do": "deal", "dealer": event["seat"].upper()})
            dealt = True
            continue
        if not dealt and kind in ("starter", "play", "show", "crib"):
            actions.append({"do": "deal", "dealer": game.dealer})
            dealt = True
        if kind == "starter":
            actions.append({"do": "starter", "card": event["card"]})
        elif kind == "play":
            now = _series_index(game)
            if series is not None and now != series:
                end_series()
            actions.append({"do": "play", "seat": event["seat"].upper(), "card": event["card"]})
            series = now
        elif kind == "show":
            end_series()
            act: Action = {"do": "show", "seat": event["seat"].upper()}
            if "cards" in event:
                act["cards"] = list(event["cards"])
            actions.append(act)
        elif kind == "crib":
            end_series()
            actions.append({"do": "crib", "cards": list(event.get("cards", []))})
            actions.append({"do": "clear"})
            dealt = False
    return actions


def golden_script(reset: str = "turn-down") -> list[Action]:
    """The golden video's script: deal 1, the table cleared, deal 2 (see ``GOLDEN_DEAL_1/2``);
    in each deal, after the fourth card, a hand hovers over the cards the other seat laid for
    three seconds (a player reaching across to point), which must add and take back nothing.

    >>> [a["seat"] for a in golden_script() if a["do"] == "hover"]
    ['A', 'A']
    """
    out: list[Action] = []
    plays = 0
    for action in script_from_events(golden_events(), reset=reset):
        out.append(action)
        if action["do"] == "deal":
            plays = 0
        if action["do"] == "play":
            plays += 1
            if plays == 4:
                other = "A" if action["seat"] == "B" else "B"
                out.append({"do": "hover", "seat": other, "seconds": 3.0})
    return out


def random_script(seed: int, reset: str = "turn-down", deals: int = 1) -> list[Action]:
    """The script of the first ``deals`` deals of a random legal game (hands unknown, as a camera
    sees them) from :func:`cribbage.game.simulate.random_game`.

    >>> acts = random_script(3)
    >>> acts[0]["do"], acts[-1]["do"]
    ('deal', 'clear')
    """
    from cribbage.game.simulate import random_game

    _game, events = random_game(
        Settings.from_json({"players": "Ann,Bob"}), random.Random(seed), hands_known=False
    )
    kept: list[Event] = []
    cribs = 0
    for e in events:
        kept.append(e)
        if e["type"] == "crib":
            cribs += 1
            if cribs >= deals:
                break
    return script_from_events(kept, reset=reset)
