"""The settings of a game: the variant, the target, the players and how points are counted.

A variant is data (cards dealt, cards laid away, cards kept, a card dealt to the crib, the play
in one series or many, partnerships); the settings pick one and add the table's choices.

>>> s = Settings.from_json({"variant": "five-card"})
>>> s.target, s.three_for_last, s.variant.kept, s.variant.single_series
(61, True, 3, True)
>>> Settings.from_json({"muggins": True}).counting
'claim'
>>> Settings.from_json({"variant": "four-player", "players": "Ann,Bob,Cat,Dan"}).sides
[('AC', 'Ann & Cat'), ('BD', 'Bob & Dan')]
>>> Settings.from_json({"target": 100})
Traceback (most recent call last):
...
cribbage.errors.RuleError: the target is 121 or 61, not 100
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cribbage.errors import InputError, RuleError
from cribbage.game.limits import MAX_NAME, check_text, shown
from cribbage.game.names import check_names

__all__ = [
    "COLOURS", "PLAYER_NAMES", "SKUNK_LINES", "VARIANTS", "Settings", "Variant", "seat_letter", "skunk_lines",
    "skunk_of",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """How one variant deals and plays; built with keywords, one row of :data:`VARIANTS`.

    ``dealt`` cards to each seat, ``discard`` of them laid away to the crib, ``kept`` shown,
    ``crib_from_pack`` cards dealt straight to the crib (one in the three-player game),
    ``target`` the usual game, ``three_for_last`` and ``single_series`` the five-card game's
    play, ``partners`` seats A and C against B and D.

    >>> VARIANTS["four-player"].sides
    (('AC', (0, 2)), ('BD', (1, 3)))
    """

    name: str
    seats: int
    dealt: int
    discard: int
    kept: int
    crib_from_pack: int = 0
    target: int = 121
    three_for_last: bool = False
    single_series: bool = False
    partners: bool = False

    @property
    def crib_size(self) -> int:
        """Cards in the crib: always four."""
        return self.seats * self.discard + self.crib_from_pack

    @property
    def sides(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """``(side id, seats)`` for each side that scores: a seat, or a partnership ``AC``/``BD``."""
        if self.partners:
            return (("AC", (0, 2)), ("BD", (1, 3)))
        return tuple((seat_letter(i), (i,)) for i in range(self.seats))

    def to_json(self) -> dict[str, Any]:
        """What a table needs to set the variant up: seat letters, sides, cards a hand keeps and
        the usual target.

        >>> VARIANTS["three-player"].to_json()["sides"][2]
        {'id': 'C', 'seats': ['C']}
        """
        return {
            "seats": [seat_letter(i) for i in range(self.seats)],
            "sides": [
                {"id": side, "seats": [seat_letter(i) for i in seats]} for side, seats in self.sides
            ],
            "partners": self.partners,
            "kept": self.kept,
            "target": self.target,
        }


def seat_letter(seat: int) -> str:
    """The letter a seat number goes by at the table: 0 is A.

    >>> seat_letter(0), seat_letter(3)
    ('A', 'D')
    """
    return chr(65 + seat)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(name="six-card", seats=2, dealt=6, discard=2, kept=4),
        Variant(
            name="five-card", seats=2, dealt=5, discard=2, kept=3, target=61,
            three_for_last=True, single_series=True,
        ),
        Variant(name="three-player", seats=3, dealt=5, discard=1, kept=4, crib_from_pack=1),
        Variant(name="four-player", seats=4, dealt=5, discard=1, kept=4, partners=True),
    )
}
"""The variants by name; ``six-card`` is the default."""

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
"""Default peg colours by side: red, blue, green, orange."""

PLAYER_NAMES: tuple[str, ...] = ("Ann", "Bob", "Cat", "Dan")
"""The players' names when nobody names them, seat A's first: the demo's, ``crib track``'s and
the page's New tab's (:mod:`companion.names`; the page reads them from ``GET /api/session``)."""

_CSS_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|[a-zA-Z]{3,20}")
"""A colour as the page and the board take it: hex, or a CSS colour name."""
COUNTING = ("auto", "claim")
OVERCLAIM = ("refuse", "peg")


SKUNK_LINES: dict[int, tuple[int, int | None]] = {121: (91, 61), 61: (31, None)}
"""The skunk and double-skunk lines by target (RULES.md, rule 9): a loser **below** the first
is skunked, below the second double-skunked. A 61-point game has no double line. The board's
LEDs and drawing read these (``firmware.layout``)."""


def skunk_lines(target: int) -> tuple[int, int | None]:
    """The skunk line and the double-skunk line for a target (:data:`SKUNK_LINES`).

    >>> skunk_lines(121), skunk_lines(61)
    ((91, 61), (31, None))
    """
    return SKUNK_LINES[target]


def skunk_of(target: int, runner_up: int) -> str | None:
    """How a game to ``target`` won with the best loser on ``runner_up`` points counts:
    ``"double"``, ``"skunk"`` or None.

    >>> skunk_of(121, 60), skunk_of(121, 90), skunk_of(121, 91), skunk_of(61, 0)
    ('double', 'skunk', None, 'skunk')
    """
    line, double = skunk_lines(target)
    if double is not None and runner_up < double:
        return "double"
    if runner_up < line:
        return "skunk"
    return None


def _seats_words(variant: Variant, players: int) -> str:
    """Why ``players`` names do not fit ``variant``, and the variant that fits them.

    >>> _seats_words(VARIANTS["six-card"], 3)
    'the six-card game has 2 players, not 3: 3 players play the three-player game'
    """
    fits = [v.name for v in VARIANTS.values() if v.seats == players]
    hint = (f": {players} players play the {' or '.join(fits)} game" if fits
            else f" (the games here are for {_seat_counts()} players)")
    return f"the {variant.name} game has {variant.seats} players, not {players}{hint}"


def _seat_counts() -> str:
    counts = sorted({v.seats for v in VARIANTS.values()})
    return ", ".join(map(str, counts[:-1])) + " or " + str(counts[-1])


def _flag(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RuleError(f"setting {key} is true or false, not {shown(value)}", rule="settings")
    return value


@dataclass(frozen=True, slots=True)
class Settings:
    """A table's choices for one game. Build with :meth:`from_json`; saved with :meth:`to_json`."""

    variant: Variant
    target: int
    players: tuple[str, ...]
    muggins: bool = False
    counting: str = "auto"
    three_for_last: bool = False
    overclaim: str = "refuse"
    colours: tuple[str, ...] = field(default=COLOURS)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None = None, *, stored: bool = False) -> Settings:
        """Read and check settings; every key is optional. Names with a hidden character, or
        two alike, are refused (:func:`cribbage.game.names.check_names`) unless ``stored``
        (a game kept from before names were checked still opens).

        Keys: ``variant`` (six-card, five-card, three-player, four-player), ``target``
        (121 or 61; five-card defaults to 61), ``players`` (names, a list or ``"Ann,Bob"``),
        ``muggins`` (bool), ``counting`` (``auto`` or ``claim``; ``claim`` by default with
        muggins on, the usual table game), ``three_for_last`` (bool;
        on by default in five-card), ``overclaim`` (``refuse``, or ``peg`` with muggins off),
        ``colours`` (one per side).
        """
        if data is not None and not isinstance(data, dict):
            raise RuleError("settings are a JSON object", rule="settings")
        data = dict(data or {})
        name = data.get("variant") or "six-card"
        if not isinstance(name, str) or name not in VARIANTS:
            raise RuleError(
                f"no variant {shown(name)}; choose {', '.join(VARIANTS)}", rule="settings"
            )
        variant = VARIANTS[name]
        target = data.get("target") or variant.target
        if isinstance(target, str) and target.strip() in ("121", "61"):
            target = int(target)
        if target not in (121, 61) or isinstance(target, bool):
            raise RuleError(f"the target is 121 or 61, not {shown(target)}", rule="settings")
        players = data.get("players") or []
        if isinstance(players, str):
            players = [p.strip() for p in check_text(players, "players").split(",")]
        if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
            raise RuleError("players are a list of names", rule="settings")
        for k, player in enumerate(players):
            check_text(player, f"players[{k}]")
        players = [p.strip() for p in players]
        for k, player in enumerate(players):
            if len(player) > MAX_NAME:  # input no game can take: too large (the page's 400)
                raise InputError(
                    f"players[{k}] is {len(player)} characters long; a player's name is at most "
                    f"{MAX_NAME}"
                )
        if not players:
            players = [f"Player {seat_letter(i)}" for i in range(variant.seats)]
        if not all(players):
            raise RuleError("a player's name cannot be empty", rule="settings")
        if not stored:
            check_names(players)
        if len(players) != variant.seats:
            raise RuleError(_seats_words(variant, len(players)), rule="settings")
        muggins = _flag(data, "muggins", False)
        counting = data.get("counting") or ("claim" if muggins else "auto")
        if not isinstance(counting, str) or counting not in COUNTING:
            raise RuleError(f"counting is auto or claim, not {shown(counting)}", rule="settings")
        overclaim = data.get("overclaim") or "refuse"
        if not isinstance(overclaim, str) or overclaim not in OVERCLAIM:
            raise RuleError(f"overclaim is refuse or peg, not {shown(overclaim)}", rule="settings")
        if overclaim == "peg" and muggins:
            raise RuleError(
                "an over-claim can only be pegged as claimed with muggins off", rule="settings"
            )
        colours = data.get("colours") or COLOURS
        if not isinstance(colours, list | tuple) or not all(
            isinstance(c, str) and _CSS_COLOUR.fullmatch(c.strip()) for c in colours
        ):
            raise RuleError(
                "colours are a list of CSS colours (#rgb, #rrggbb or a name like red)",
                rule="settings",
            )
        sides = len(variant.sides)
        colours = [c.strip() for c in colours][:sides]
        return cls(
            variant=variant,
            target=target,
            players=tuple(players),
            muggins=muggins,
            counting=counting,
            three_for_last=_flag(data, "three_for_last", variant.three_for_last),
            overclaim=overclaim,
            colours=tuple(colours) + COLOURS[len(colours) : sides],
        )

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Settings:
        """Settings stored with a game: as :meth:`from_json`, but a name longer than
        :data:`~cribbage.game.limits.MAX_NAME` (stored before names were bounded) is cut to
        it, and its names are not checked again, so an old game still opens.

        >>> Settings.from_stored({"players": ["A" * 30, "Bob"]}).players[0]
        'AAAAAAAAAAAAAAAAAAAAAAAA'
        """
        players = data.get("players") if isinstance(data, dict) else None
        if isinstance(players, list):
            data = {**data, "players": [
                p.strip()[:MAX_NAME] if isinstance(p, str) else p for p in players
            ]}
        return cls.from_json(data, stored=True)

    def to_json(self) -> dict[str, Any]:
        """The settings as stored with the game (and shown in the state)."""
        return {
            "variant": self.variant.name,
            "target": self.target,
            "players": list(self.players),
            "muggins": self.muggins,
            "counting": self.counting,
            "three_for_last": self.three_for_last,
            "overclaim": self.overclaim,
            "colours": list(self.colours),
        }

    @property
    def seats(self) -> int:
        """Number of seats at the table."""
        return self.variant.seats

    @property
    def sides(self) -> list[tuple[str, str]]:
        """``(side id, name)`` for each side that scores: a seat, or a partnership ``AC``/``BD``."""
        return [
            (side, " & ".join(self.players[i] for i in seats)) for side, seats in self.variant.sides
        ]

    def side_of(self, seat: int) -> str:
        """The side a seat number scores for.

        >>> Settings.from_json({"variant": "four-player"}).side_of(3)
        'BD'
        """
        return next(side for side, seats in self.variant.sides if seat in seats)
