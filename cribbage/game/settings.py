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

from cribbage.errors import RuleError
from cribbage.game.limits import check_text, shown

__all__ = ["COLOURS", "VARIANTS", "Settings", "Variant", "skunk_lines"]


@dataclass(frozen=True, slots=True)
class Variant:
    """How one variant deals and plays.

    ``dealt`` cards to each seat, ``discard`` of them laid away to the crib, ``kept`` shown,
    ``crib_from_pack`` cards dealt straight to the crib (one in the three-player game).
    """

    name: str
    seats: int
    dealt: int
    discard: int
    kept: int
    crib_from_pack: int
    target: int
    three_for_last: bool
    single_series: bool
    partners: bool

    @property
    def crib_size(self) -> int:
        """Cards in the crib: always four."""
        return self.seats * self.discard + self.crib_from_pack


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("six-card", 2, 6, 2, 4, 0, 121, False, False, False),
        Variant("five-card", 2, 5, 2, 3, 0, 61, True, True, False),
        Variant("three-player", 3, 5, 1, 4, 1, 121, False, False, False),
        Variant("four-player", 4, 5, 1, 4, 0, 121, False, False, True),
    )
}
"""The variants by name; ``six-card`` is the default."""

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
"""Default peg colours by side: red, blue, green, orange."""

_CSS_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|[a-zA-Z]{3,20}")
"""A colour as the page and the board take it: hex, or a CSS colour name."""
COUNTING = ("auto", "claim")
OVERCLAIM = ("refuse", "peg")


def skunk_lines(target: int) -> tuple[int, int | None]:
    """The skunk line and the double-skunk line for a target (RULES.md, rule 9).

    A loser below the skunk line is skunked; below the double line double-skunked. RULES.md
    gives 31 as the skunk line of a 61-point game and no double line for it.

    >>> skunk_lines(121), skunk_lines(61)
    ((91, 61), (31, None))
    """
    return (91, 61) if target == 121 else (31, None)


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
    def from_json(cls, data: dict[str, Any] | None = None) -> Settings:
        """Read and check settings; every key is optional.

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
        for k, name in enumerate(players):
            check_text(name, f"players[{k}]")
        players = [p.strip() for p in players]
        if not players:
            players = [f"Player {chr(65 + i)}" for i in range(variant.seats)]
        if len(players) != variant.seats or not all(players):
            raise RuleError(
                f"the {name} game has {variant.seats} players, not {len(players)}",
                rule="settings",
            )
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
        sides = 2 if variant.partners else variant.seats
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
        letters = [chr(65 + i) for i in range(self.seats)]
        if self.variant.partners:
            return [
                ("AC", f"{self.players[0]} & {self.players[2]}"),
                ("BD", f"{self.players[1]} & {self.players[3]}"),
            ]
        return list(zip(letters, self.players, strict=True))

    def side_of(self, seat: int) -> str:
        """The side a seat number scores for.

        >>> Settings.from_json({"variant": "four-player"}).side_of(3)
        'BD'
        """
        if self.variant.partners:
            return "AC" if seat % 2 == 0 else "BD"
        return chr(65 + seat)
