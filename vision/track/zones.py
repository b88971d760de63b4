"""Where on the table each card counts: the centre (pack, starter, crib) and each seat's zone.

Zones are rectangles in fractions of the frame (x0, y0, x1, y1), so they hold at any camera
resolution. The centre takes precedence where it overlaps a seat's zone. The default is the
table protocol of ``docs/tracking.md``: seat A at the bottom edge, B at the top edge, the centre
x 30-70 %, y 35-65 %; with three and four players the seats go round the table to the left
(clockwise seen from above: bottom, left, top, right).

>>> zones = Zones.default(2)
>>> zones.zone_of(640, 360, 1280, 720), zones.zone_of(640, 600, 1280, 720), zones.zone_of(100, 80, 1280, 720)
('centre', 'A', 'B')
>>> Zones.from_json({"players": 2, "centre": [0.3, 0.35, 0.7, 0.65],
...                  "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0, 1, 0.5]}}) == zones
True
>>> Zones.from_json({"players": 2, "centre": [0.7, 0.35, 0.3, 0.65], "seats": {}})
Traceback (most recent call last):
...
vision.track.zones.ZonesError: the centre zone needs x0 < x1 and y0 < y1, each from 0 to 1

Zones that parse (numbers, never strings of them) are still refused when they cannot follow a
game: a centre over more than 60 % of the frame (or touching all four edges), a seat's zone
inside the centre, two seats with (nearly) the same zone (more than 80 % of their union shared),
one seat's zone inside another's, a seat's zone all covered by the centre and the seats before it
(it would never get a card):

>>> Zones.from_json({"players": 2, "centre": [0, 0, 1, 1],  # doctest: +ELLIPSIS
...                  "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0, 1, 0.5]}})
Traceback (most recent call last):
...
vision.track.zones.ZonesError: the centre zone covers 100% of the picture: keep it to the middle ...
>>> Zones.from_json({"players": 2, "centre": [0.3, 0.35, 0.7, 0.65],  # doctest: +ELLIPSIS
...                  "seats": {"A": [0, 0.5, 1, 1], "B": [0, 0.52, 1, 1]}})
Traceback (most recent call last):
...
vision.track.zones.ZonesError: seat A's zone and seat B's zone are (nearly) the same: ...
>>> Zones.from_json({"players": 2, "centre": [0.3, 0.35, 0.7, 0.65],  # doctest: +ELLIPSIS
...                  "seats": {"A": [0, 0.5, 1, 1], "B": [0.1, 0.7, 0.5, 0.95]}})
Traceback (most recent call last):
...
vision.track.zones.ZonesError: seat B's zone lies inside seat A's zone: ...
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cribbage.errors import CribbageError

__all__ = ["CENTRE", "Rect", "Zones", "ZonesError"]

Rect = tuple[float, float, float, float]
"""x0, y0, x1, y1 as fractions of the frame's width and height."""

CENTRE = "centre"
"""The name of the centre zone (the pack, the starter, the crib spread for the show)."""

MIN_SIDE = 0.05  # a zone narrower or lower than this share of the frame is a slip of a finger
MAX_CENTRE = 0.6  # a centre over this share of the frame leaves the seats nothing (it wins overlaps)
EDGE = 0.01  # a zone side this close to the frame's edge touches it
SAME_ZONE = 0.8  # two seats whose zones overlap this much (intersection over union) are one zone

_DEFAULT_SEATS: dict[int, dict[str, Rect]] = {
    2: {"A": (0.0, 0.5, 1.0, 1.0), "B": (0.0, 0.0, 1.0, 0.5)},
    3: {"A": (0.0, 0.5, 1.0, 1.0), "B": (0.0, 0.0, 0.5, 0.5), "C": (0.5, 0.0, 1.0, 0.5)},
    4: {"A": (0.0, 0.65, 1.0, 1.0), "B": (0.0, 0.0, 0.3, 1.0), "C": (0.0, 0.0, 1.0, 0.35),
        "D": (0.7, 0.0, 1.0, 1.0)},
}
_DEFAULT_CENTRE: Rect = (0.30, 0.35, 0.70, 0.65)


class ZonesError(CribbageError):
    """Zones that cannot be used; the message says which and why."""


def _rect(value: Any, what: str) -> Rect:
    """``value`` as a zone; ``what`` names it in the message ("the centre zone", "seat A's zone")."""
    four = f"{what} is four numbers: x0, y0, x1, y1 (fractions of the frame)"
    if not isinstance(value, list | tuple) or len(value) != 4 or any(
            isinstance(v, bool) or not isinstance(v, int | float) for v in value):  # "0.5" is no number
        raise ZonesError(four)
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ZonesError(four) from None
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        raise ZonesError(four)
    if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
        raise ZonesError(f"{what} needs x0 < x1 and y0 < y1, each from 0 to 1")
    if x1 - x0 < MIN_SIDE or y1 - y0 < MIN_SIDE:
        raise ZonesError(f"{what} is too small (each side at least {MIN_SIDE:.0%} of the frame)")
    return (round(x0, 4), round(y0, 4), round(x1, 4), round(y1, 4))


def _inside(rect: Rect, fx: float, fy: float) -> bool:
    return rect[0] <= fx <= rect[2] and rect[1] <= fy <= rect[3]


def _area(rect: Rect) -> float:
    return max(0.0, rect[2] - rect[0]) * max(0.0, rect[3] - rect[1])


def _overlap(a: Rect, b: Rect) -> float:
    """The area ``a`` and ``b`` share."""
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _check_layout(centre: Rect, seats: list[tuple[str, Rect]]) -> None:
    """Zones that parse but cannot follow a game: a centre over (nearly) the whole frame, a seat
    whose zone lies inside the centre (the centre wins there, so the seat would have none), two
    seats with (nearly) the same zone. Seats are named ``seat A`` for the page to put names on."""
    edges = centre[0] <= EDGE and centre[1] <= EDGE and centre[2] >= 1 - EDGE and centre[3] >= 1 - EDGE
    if edges or _area(centre) > MAX_CENTRE:
        raise ZonesError(f"the centre zone covers {_area(centre):.0%} of the picture: keep it to the middle "
                         f"of the table, where the pack and the crib lie (at most {MAX_CENTRE:.0%})")
    for letter, rect in seats:
        if _overlap(rect, centre) >= _area(rect) - 1e-9:
            raise ZonesError(f"seat {letter}'s zone lies inside the centre: a player's zone is the table "
                             "in front of them, outside the centre")
    for i, (a, ra) in enumerate(seats):
        for b, rb in seats[i + 1:]:
            both = _overlap(ra, rb)
            if both / (_area(ra) + _area(rb) - both) > SAME_ZONE:
                raise ZonesError(f"seat {a}'s zone and seat {b}'s zone are (nearly) the same: each player "
                                 "needs a zone of their own")
            for inner, outer, r_in in ((b, a, rb), (a, b, ra)):
                if both >= _area(r_in) - 1e-9:
                    raise ZonesError(f"seat {inner}'s zone lies inside seat {outer}'s zone: each player "
                                     "needs a zone of their own, side by side")
    for i, (letter, rect) in enumerate(seats):
        if _covered(rect, [centre] + [r for _, r in seats[:i]]):
            raise ZonesError(f"seat {letter}'s zone is all covered by the centre and the zones before "
                             "it: that player would never get a card")


def _covered(rect: Rect, others: list[Rect]) -> bool:
    """Whether ``others`` together cover ``rect`` (each cell between their edges looked at once).

    >>> _covered((0, 0, 1, 1), [(0, 0, 0.5, 1), (0.5, 0, 1, 1)]), _covered((0, 0, 1, 1), [(0, 0, 0.5, 1)])
    (True, False)
    """
    xs = sorted({rect[0], rect[2], *(min(max(r[k], rect[0]), rect[2]) for r in others for k in (0, 2))})
    ys = sorted({rect[1], rect[3], *(min(max(r[k], rect[1]), rect[3]) for r in others for k in (1, 3))})
    for x0, x1 in itertools.pairwise(xs):
        for y0, y1 in itertools.pairwise(ys):
            if x1 - x0 > 1e-9 and y1 - y0 > 1e-9 and not any(
                    _inside(r, (x0 + x1) / 2, (y0 + y1) / 2) for r in others):
                return False
    return True


@dataclass(frozen=True)
class Zones:
    """The centre zone and each seat's zone (seats lettered A, B, ... as in the game)."""

    players: int
    centre: Rect
    seats: tuple[tuple[str, Rect], ...]

    @classmethod
    def default(cls, players: int = 2) -> Zones:
        """The table protocol's zones for 2, 3 or 4 players."""
        if players not in _DEFAULT_SEATS:
            raise ZonesError(f"zones are for 2, 3 or 4 players, not {players}")
        return cls(players, _DEFAULT_CENTRE, tuple(_DEFAULT_SEATS[players].items()))

    def seat(self, letter: str) -> Rect:
        """The zone of seat ``letter``."""
        return dict(self.seats)[letter]

    def zone_of(self, x: float, y: float, width: float, height: float) -> str | None:
        """``"centre"``, a seat's letter, or None for a point (pixels) in a ``width`` x ``height``
        frame that lies in no zone."""
        fx, fy = x / max(width, 1), y / max(height, 1)
        if _inside(self.centre, fx, fy):
            return CENTRE
        for letter, rect in self.seats:
            if _inside(rect, fx, fy):
                return letter
        return None

    def to_json(self) -> dict[str, Any]:
        """``{"players": 2, "centre": [x0, y0, x1, y1], "seats": {"A": [...], ...}}``."""
        return {"players": self.players, "centre": list(self.centre),
                "seats": {letter: list(rect) for letter, rect in self.seats}}

    @classmethod
    def from_json(cls, data: Any) -> Zones:
        """Zones from their JSON form; raises :class:`ZonesError` naming what is wrong."""
        if not isinstance(data, dict):
            raise ZonesError('zones are a JSON object: {"players", "centre", "seats"}')
        players = data.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) or players not in _DEFAULT_SEATS:
            raise ZonesError("zones are for 2, 3 or 4 players")
        centre = _rect(data.get("centre"), "the centre zone")
        seats = data.get("seats")
        if not isinstance(seats, dict):
            raise ZonesError('zones need "seats": {"A": [x0, y0, x1, y1], ...}')
        letters = [chr(65 + i) for i in range(players)]
        unknown = sorted(str(k) for k in seats if k not in letters)
        if unknown:
            raise ZonesError(f"no seat {unknown[0]!r} at a table of {players} (seats {', '.join(letters)})")
        missing = [k for k in letters if k not in seats]
        if missing:
            raise ZonesError(f"seat {missing[0]} has no zone")
        rects = [(k, _rect(seats[k], f"seat {k}'s zone")) for k in letters]
        _check_layout(centre, rects)
        return cls(players, centre, tuple(rects))

    @classmethod
    def load(cls, path: str | Path, players: int = 2) -> Zones:
        """Zones from a JSON file; the default zones when the file does not exist."""
        p = Path(path)
        if not p.exists():
            return cls.default(players)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ZonesError(f"cannot read zones from {p} ({exc})") from None
        return cls.from_json(data)

    def save(self, path: str | Path) -> None:
        """Write the zones to ``path`` atomically: a temporary file of its own (so saves at once
        never share one), then a rename; the file is always whole zones, the last save's. An
        :class:`OSError` (a full or read-only card) leaves the file as it was and no temporary
        file behind."""
        p = Path(path)
        fd, name = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(self.to_json(), indent=1) + "\n")
            os.replace(name, p)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise
