"""Scripted deals for the deal videos: the golden deals, and game events turned into a script.

A *script* is a list of JSON-friendly actions that :func:`vision.synth.video.render_video` acts
out on a table seen from above (``deal``, ``starter``, ``play``, ``reset``, ``show``, ``crib``,
``clear``, ``hover``, ``pause``; see docs/vision-synth.md). :func:`script_from_events` turns a
game's events (``crib game event`` JSON, two players, hands unknown: as a camera sees the table)
into such a script, replaying them through :class:`cribbage.game.Game` to find where each
series of the play ends; any variant (two, three or four players, the five-card game).
:func:`game_script` plays a random game (:func:`cribbage.game.simulate.random_game`) and
scripts its first deals or the whole game, with the events a camera should report.

>>> actions = script_from_events(GOLDEN_DEAL_1)
>>> [a["do"] for a in actions][:4]
['deal', 'starter', 'play', 'play']
>>> sum(a["do"] == "reset" for a in actions)
2
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cribbage.errors import RuleError
from cribbage.game import VARIANTS, Game, Settings

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


def settings_of(data: Mapping[str, Any] | Settings | None = None) -> Settings:
    """Game settings from their JSON form (:meth:`Settings.from_json`), the variant inferred when
    it is not named: three players are the three-player game, four (or ``"partners": true``)
    the four-player game of partners A+C v B+D.

    >>> settings_of({"players": "Ann,Bob,Cat"}).variant.name
    'three-player'
    >>> settings_of({"players": "Ann,Bob,Cat,Dan", "partners": True}).sides
    [('AC', 'Ann & Cat'), ('BD', 'Bob & Dan')]
    >>> settings_of({"players": "Ann,Bob", "variant": "five-card"}).target
    61
    """
    if isinstance(data, Settings):
        return data
    raw = dict(data or {})
    partners = raw.pop("partners", None)
    if not raw.get("variant"):
        players = raw.get("players") or []
        n = len(players.split(",")) if isinstance(players, str) else len(players)
        if partners or n == 4:
            raw["variant"] = "four-player"
        elif n == 3:
            raw["variant"] = "three-player"
    if partners is not None and bool(partners) != VARIANTS[raw.get("variant") or "six-card"].partners:
        raise ValueError("partners are played only in the four-player game")
    return Settings.from_json(raw)


def _series_index(game: Game) -> int:
    """The number of the series the card just laid belongs to."""
    deal = game.deal
    assert deal is not None and deal.play is not None
    play = deal.play
    return play.series_number if play.series else play.series_number - 1


def script_from_events(
    events: Sequence[Event],
    reset: str = "turn-down",
    game: Game | None = None,
    settings: Mapping[str, Any] | Settings | None = None,
) -> list[Action]:
    """The video script of a game's events (dealer, starter, play, go, show, crib), for any
    variant: two, three or four seats, the five-card game.

    The events are replayed through the game (from ``game``; else a new game of ``settings``, a
    settings JSON or :class:`Settings`, see :func:`settings_of`; else a new two-player game; a
    refused event raises :class:`cribbage.errors.RuleError`). Go events are not acted out (a
    camera does not see them), nor are ``hand``, ``discard`` and ``crib-card`` (hands known: the
    camera sees only backs). A ``reset`` action is inserted after each finished series of the
    play (after a 31, after a go, and after the last series, before the show); it carries
    ``"mode": reset`` (``"turn-down"`` or ``"keep"``); ``reset="none"`` inserts none. After a
    crib the table is cleared; the next deal starts with a ``deal`` action when more events follow.

    >>> [a["do"] for a in script_from_events(GOLDEN_DEAL_1, reset="none")][-4:]
    ['show', 'show', 'crib', 'clear']
    >>> three = [{"type": "dealer", "seat": "C"}, {"type": "starter", "card": "4D"},
    ...          {"type": "play", "seat": "A", "card": "KS"}]
    >>> script_from_events(three, settings={"players": "Ann,Bob,Cat"})[-1]
    {'do': 'play', 'seat': 'A', 'card': 'KS'}
    """
    if reset not in ("turn-down", "keep", "none"):
        raise ValueError(f"reset must be turn-down, keep or none, not {reset!r}")
    game = game or (Game(settings_of(settings)) if settings is not None else new_game())
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
    """The script of the first ``deals`` deals of a random legal two-player game (hands unknown,
    as a camera sees them) from :func:`cribbage.game.simulate.random_game`.

    >>> acts = random_script(3)
    >>> acts[0]["do"], acts[-1]["do"]
    ('deal', 'clear')
    """
    return game_script({"players": "Ann,Bob"}, seed, deals=deals, reset=reset).actions


def camera_events(events: Sequence[Event]) -> list[Event]:
    """The events a camera over the table can report: without ``go`` (said, not seen) and
    without ``hand``, ``discard`` and ``crib-card`` (cards seen only as backs).

    >>> len(camera_events(GOLDEN_DEAL_1)), len(GOLDEN_DEAL_1)
    (13, 15)
    """
    hidden = ("go", "hand", "discard", "crib-card")
    return [dict(e) for e in events if e["type"] not in hidden]


def _needed_goes(events: Sequence[Event], settings: Settings) -> list[Event]:
    """``events`` without the go events the game infers from the cards laid after them (a go
    is kept where no card shows it: the end of a five-card play, a game won by a go)."""
    game = Game(settings)
    out: list[Event] = []
    pending: list[Event] = []
    for e in events:
        if e["type"] == "go":
            pending.append(dict(e))
            continue
        try:
            game = game.apply(e)
        except RuleError:
            if not pending:
                raise
            for go in pending:
                game = game.apply(go)
            out += pending
            game = game.apply(e)
        pending = []
        out.append(dict(e))
    if pending and game.phase != "over":
        done = game
        for go in pending:
            done = done.apply(go)
        if done.scores != game.scores or done.phase != game.phase:
            out += pending
    return out


@dataclass
class GameScript:
    """A game scripted for a video: the ``actions``; the ``events`` a camera should report
    (:func:`camera_events`: no go); ``legal_events``, those with the few go events the game
    cannot infer from the cards (the end of a five-card play, a game won by a go: said aloud,
    never seen), which :class:`cribbage.game.Game` accepts; the ``settings`` JSON, the first
    ``dealer``, the ``scores`` after ``legal_events`` (by side: ``A``, ``B`` ... or
    ``AC``/``BD``), whether the game is ``over`` after them, and the number of ``deals`` begun."""

    actions: list[Action]
    events: list[Event]
    legal_events: list[Event]
    settings: dict[str, Any]
    dealer: str
    scores: dict[str, int]
    over: bool
    deals: int
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        """What a video's truth keeps of it: ``events``, ``legal_events``, ``settings``,
        ``players`` (names), ``variant``, ``dealer``, ``scores``, ``over``, ``deals``,
        ``game_seed`` (None for scripted events)."""
        return {
            "events": self.events,
            "legal_events": self.legal_events,
            "settings": self.settings,
            "players": list(self.settings["players"]),
            "variant": self.settings["variant"],
            "dealer": self.dealer,
            "scores": self.scores,
            "over": self.over,
            "deals": self.deals,
            "game_seed": self.seed,
        }


def script_of_game(
    events: Sequence[Event], settings: Mapping[str, Any] | Settings | None = None, reset: str = "turn-down"
) -> GameScript:
    """A :class:`GameScript` of given events (a two-player game by default).

    >>> g = script_of_game(golden_events())
    >>> g.scores, g.deals, len(g.events), g.legal_events == g.events
    ({'A': 29, 'B': 19}, 2, 25, True)
    """
    s = settings_of(settings if settings is not None else {"players": "Ann,Bob"})
    legal = _needed_goes([e for e in events if e["type"] not in ("hand", "discard", "crib-card")], s)
    game = Game(s)
    for e in legal:
        game = game.apply(e)
    dealer = next((e["seat"] for e in events if e["type"] == "dealer"), None)
    return GameScript(
        actions=script_from_events(events, reset=reset, settings=s),
        events=camera_events(events),
        legal_events=legal,
        settings=s.to_json(),
        dealer=dealer or game.to_json().get("dealer") or "A",
        scores=dict(game.scores),
        over=game.phase == "over",
        deals=sum(e["type"] == "starter" for e in events),
    )


def game_script(
    settings: Mapping[str, Any] | Settings | None,
    seed: int,
    deals: int | None = None,
    reset: str = "turn-down",
) -> GameScript:
    """Play :func:`cribbage.game.simulate.random_game` with ``settings`` (JSON, see
    :func:`settings_of`; hands unknown, as a camera sees the table) from ``random.Random(seed)``
    and script its first ``deals`` deals, or the whole game to its end when ``deals`` is None.

    The camera cannot see a go: ``legal_events`` keeps the few the game cannot infer. A game
    won by a go (the last card's point with no card after it) ends unseen; the ``whole``
    scenario of :mod:`vision.synth.golden` uses a seed whose game the camera sees end.

    >>> g = game_script({"players": "Ann,Bob,Cat,Dan"}, 1, deals=1)
    >>> g.settings["variant"], g.deals, g.actions[-1], sorted(g.scores)
    ('four-player', 1, {'do': 'clear'}, ['AC', 'BD'])
    >>> whole = game_script({"players": "Ann,Bob"}, 2)
    >>> whole.over, max(whole.scores.values())
    (True, 121)
    """
    from cribbage.game.simulate import random_game

    s = settings_of(settings)
    _game, events = random_game(s, random.Random(seed), hands_known=False)
    kept: list[Event] = []
    cribs = 0
    for e in events:
        kept.append(e)
        if e["type"] == "crib":
            cribs += 1
            if deals is not None and cribs >= deals:
                break
    g = script_of_game(kept, s, reset)
    g.seed = seed
    return g
