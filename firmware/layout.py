"""The peg board described once: tracks, holes, streets, skunk lines and the LED under every hole.

The peg renderer, the web page's SVG drawing and the OpenSCAD model all read this one
description, so a change of geometry or wiring happens here and nowhere else.

Numbering (the same on every track)
-----------------------------------
* hole ``0`` is the track's **start hole** (both pegs sit there before the first point);
* holes ``1 .. holes_per_lap`` are the playing holes, in streets of five (hole 1-5 is street 1);
* hole ``holes_per_lap + 1`` is the track's **game hole** (121 on a one-lap board, 61 on a
  two-lap board). Every track has its own start and game hole so the LED under it says whose peg
  it is.

``laps=1`` is a 121-hole board (120 holes + game hole per track); ``laps=2`` is a 61-hole board
that a 121-point game goes round twice (score 75 sits in hole 15 of the second lap). A 61-point
game fits either board: on the 61-hole board it ends in the game hole, on the 121-hole board in
hole 61. :meth:`BoardLayout.hole_for_score` does this mapping.

Skunk lines
-----------
The game's settings hold the skunk lines (:data:`cribbage.game.settings.SKUNK_LINES`, RULES.md
§9): a loser **below** 91 is skunked, below 61 double-skunked, below 31 in a 61-point game.
The board draws a line "below N" between hole N-1 and hole N (:func:`line_after_hole`), so a
:class:`SkunkLine` is ``after`` 90 and 60 (after 30 at 61 points): a loser at ``after`` or less
is skunked. On the 61-hole board the 121-point game's line after 90 falls on hole 30 of the
second lap, the same hole as the 61-point line.

Geometry (millimetres, x to the right, y **down** from the board's top-left corner, as in SVG)
-------------------------------------------------------------------------------------------
Holes sit in straight rows of 30 at the pitch of a 144 LED/m strip (1000/144 = 6.944 mm), so a
row of holes is one uncut piece of strip. A lap is 4 rows (121 board) or 2 rows (61 board); a
"group" of rows holds one row per track, 14 mm apart, and the track runs left to right in even
groups and right to left in odd groups (a U-turn, lanes mirrored so the inner track stays
inner). The start hole is one pitch before hole 1, the game hole one pitch after the last hole.
Below the holes is a band with the Pico cavity and the buttons.

Wiring
------
``"snake"``: one strip through every row, top to bottom, alternating direction, so consecutive
LEDs are always neighbours on the board. ``"per-track"``: one strip per track (strip ``t`` on
its own data pin, LEDs numbered ``t * holes_per_track + k`` in frames), following the track from
start hole to game hole.

>>> board = BoardLayout.standard(tracks=2, laps=1)
>>> board.led_count, board.holes_per_track
(244, 122)
>>> board.hole(0, 45).street, board.hole(0, 0).kind, board.hole(1, 121).kind
(9, 'start', 'game')
>>> board.hole_for_score(121), BoardLayout.standard(laps=2).hole_for_score(75)
(121, 15)
>>> [line.after for line in board.skunk_lines]
[60, 90]
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Literal

from cribbage.game.settings import skunk_lines as game_skunk_lines

__all__ = [
    "SEATS",
    "BoardLayout",
    "Geometry",
    "Hole",
    "SkunkLine",
    "Street",
    "Strip",
    "line_after_hole",
    "seat_track",
]

#: Seat (team) letters in track order: seat "A" pegs on track 0, "B" on 1, "C" on 2.
SEATS = ("A", "B", "C")

Wiring = Literal["snake", "per-track"]
HoleKind = Literal["start", "hole", "game"]

ROW_HOLES = 30  # playing holes in one straight row
STREET = 5  # holes in a street


def seat_track(seat: str) -> int:
    """The track index a seat letter pegs on.

    >>> seat_track("A"), seat_track("c")
    (0, 2)
    """
    letter = seat.strip().upper()
    if letter not in SEATS:
        raise ValueError(f"unknown seat {seat!r}: use one of {', '.join(SEATS)}")
    return SEATS.index(letter)


@dataclass(frozen=True)
class Geometry:
    """Sizes in millimetres that place the holes; the defaults suit a 144 LED/m, 12 mm strip."""

    pitch: float = 1000.0 / 144.0  # hole to hole along a row = LED to LED on the strip
    lane_pitch: float = 14.0  # row to row inside a group (one row per track)
    group_gap: float = 10.0  # extra space between groups of rows
    margin_x: float = 12.0  # board edge to the outermost hole centre, left and right
    margin_top: float = 12.0
    band: float = 34.0  # band below the holes: Pico cavity, buttons, cable exit
    hole_diameter: float = 3.3  # a 3 mm light pipe or a 1/8" clear peg, with clearance
    corner_radius: float = 6.0
    strip_width: float = 12.0  # the LED strip's PCB width (channel is cut a little wider)


@dataclass(frozen=True)
class Hole:
    """One hole: which track, its number (0 start, 1..n, n+1 game), where, and the LED under it."""

    track: int
    number: int
    kind: HoleKind
    x: float
    y: float
    led: int
    strip: int
    street: int | None  # 1-based street within the lap; None for start and game holes
    row: int  # physical row (top to bottom) the hole sits in

    def to_dict(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "hole": self.number,
            "kind": self.kind,
            "x": round(self.x, 3),
            "y": round(self.y, 3),
            "led": self.led,
            "strip": self.strip,
            "street": self.street,
            "row": self.row,
        }


@dataclass(frozen=True)
class Street:
    """Five holes of one track, with the bounding box of their centres for drawing."""

    track: int
    number: int
    first: int
    last: int
    x0: float
    y0: float
    x1: float
    y1: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "street": self.number,
            "holes": [self.first, self.last],
            "box": [round(v, 3) for v in (self.x0, self.y0, self.x1, self.y1)],
        }


@dataclass(frozen=True)
class SkunkLine:
    """A line between hole ``hole`` and the next on every track; a loser at ``after`` or less
    is skunked. ``segments`` holds one (x1, y1, x2, y2) per track, across the track."""

    after: int  # the score
    hole: int  # the hole it follows on this board (differs from ``after`` on a 61-hole board)
    lap: int
    segments: tuple[tuple[float, float, float, float], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "after": self.after,
            "hole": self.hole,
            "lap": self.lap,
            "segments": [[round(v, 3) for v in seg] for seg in self.segments],
        }


@dataclass(frozen=True)
class Strip:
    """A physical LED strip: its LEDs are ``first .. first + count - 1`` in a frame."""

    number: int
    first: int
    count: int


@dataclass(frozen=True)
class BoardLayout:
    """The whole board. Build one with :meth:`standard`; read holes with :meth:`hole`."""

    tracks: int
    laps: int
    wiring: Wiring
    target: int
    holes_per_lap: int
    geometry: Geometry
    width: float
    height: float
    holes: tuple[Hole, ...]
    streets: tuple[Street, ...]
    skunk_lines: tuple[SkunkLine, ...]
    strips: tuple[Strip, ...]
    rows: int
    _index: dict[tuple[int, int], Hole] = field(repr=False, compare=False, hash=False)

    # ------------------------------------------------------------------ construction
    @classmethod
    def standard(
        cls,
        tracks: int = 2,
        laps: int = 1,
        wiring: Wiring = "snake",
        *,
        target: int = 121,
        geometry: Geometry | None = None,
    ) -> BoardLayout:
        """A standard board: ``tracks`` 2 or 3, ``laps`` 1 (121 holes) or 2 (61 holes),
        ``wiring`` "snake" or "per-track", a game to ``target`` (121 or 61) points, with the
        game's skunk lines for that target.

        >>> BoardLayout.standard(tracks=3).led_count
        366
        >>> BoardLayout.standard(tracks=4)
        Traceback (most recent call last):
        ...
        ValueError: tracks must be 2 or 3, not 4
        """
        if tracks not in (2, 3):
            raise ValueError(f"tracks must be 2 or 3, not {tracks}")
        if laps not in (1, 2):
            raise ValueError(f"laps must be 1 (121 holes) or 2 (two laps of 61), not {laps}")
        if wiring not in ("snake", "per-track"):
            raise ValueError(f"wiring must be 'snake' or 'per-track', not {wiring!r}")
        if target not in (61, 121):
            raise ValueError(f"target must be 61 or 121, not {target}")
        geo = geometry or Geometry()
        per_lap = 120 // laps
        if target > 2 * per_lap + 1 or (laps == 1 and target not in (61, 121)):
            raise ValueError(f"a {per_lap + 1}-hole board cannot hold a {target}-point game")
        lines = sorted(line_after_hole(below) for below in game_skunk_lines(target) if below is not None)

        groups = per_lap // ROW_HOLES
        group_height = tracks * geo.lane_pitch
        x0 = geo.margin_x + geo.pitch  # x of column 0 (column -1 holds the start/game hole)

        def lane_of(group: int, track: int) -> int:
            return track if group % 2 == 0 else tracks - 1 - track

        def place(track: int, number: int) -> tuple[float, float, int]:
            if number == 0:
                group, col = 0, -1
            elif number == per_lap + 1:
                group = groups - 1
                col = -1 if group % 2 == 1 else ROW_HOLES
            else:
                group, j = divmod(number - 1, ROW_HOLES)
                col = j if group % 2 == 0 else ROW_HOLES - 1 - j
            lane = lane_of(group, track)
            row = group * tracks + lane
            y = geo.margin_top + group * (group_height + geo.group_gap) + lane * geo.lane_pitch
            return x0 + col * geo.pitch, y, row

        raw: list[tuple[int, int, HoleKind, float, float, int]] = []
        for t in range(tracks):
            for n in range(per_lap + 2):
                kind: HoleKind = "start" if n == 0 else "game" if n == per_lap + 1 else "hole"
                x, y, row = place(t, n)
                raw.append((t, n, kind, x, y, row))

        leds: dict[tuple[int, int], tuple[int, int]] = {}
        per_track = per_lap + 2
        if wiring == "snake":
            rows: dict[int, list[tuple[float, int, int]]] = {}
            for t, n, _k, x, _y, row in raw:
                rows.setdefault(row, []).append((x, t, n))
            index = 0
            for row in sorted(rows):
                cells = sorted(rows[row], reverse=row % 2 == 1)
                for _x, t, n in cells:
                    leds[(t, n)] = (index, 0)
                    index += 1
            strips: tuple[Strip, ...] = (Strip(0, 0, index),)
        else:
            for t, n, *_ in raw:
                leds[(t, n)] = (t * per_track + n, t)
            strips = tuple(Strip(t, t * per_track, per_track) for t in range(tracks))

        holes = tuple(
            Hole(t, n, kind, x, y, leds[(t, n)][0], leds[(t, n)][1],
                 None if kind != "hole" else (n - 1) // STREET + 1, row)
            for t, n, kind, x, y, row in raw
        )
        index_map = {(h.track, h.number): h for h in holes}

        streets = []
        for t in range(tracks):
            for s in range(per_lap // STREET):
                first, last = s * STREET + 1, s * STREET + STREET
                pts = [index_map[(t, n)] for n in range(first, last + 1)]
                streets.append(Street(t, s + 1, first, last,
                                      min(p.x for p in pts), min(p.y for p in pts),
                                      max(p.x for p in pts), max(p.y for p in pts)))

        half = geo.lane_pitch * 0.42
        skunks = []
        for score in lines:
            hole = (score - 1) % per_lap + 1
            lap = (score - 1) // per_lap + 1
            segs = []
            for t in range(tracks):
                a, b = index_map[(t, hole)], index_map[(t, hole + 1)]
                mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
                dx, dy = b.x - a.x, b.y - a.y
                length = math.hypot(dx, dy) or 1.0
                nx, ny = -dy / length * half, dx / length * half  # across the track
                segs.append((mx - nx, my - ny, mx + nx, my + ny))
            skunks.append(SkunkLine(score, hole, lap, tuple(segs)))

        width = x0 + (ROW_HOLES - 1) * geo.pitch + geo.margin_x
        if groups % 2 == 1:  # the game hole would follow the right end of the row
            width += geo.pitch
        height = (geo.margin_top + groups * group_height + (groups - 1) * geo.group_gap
                  - geo.lane_pitch + geo.margin_top / 2 + geo.band)
        return cls(
            tracks=tracks, laps=laps, wiring=wiring, target=target, holes_per_lap=per_lap,
            geometry=geo, width=width, height=height, holes=holes, streets=tuple(streets),
            skunk_lines=tuple(skunks), strips=strips, rows=groups * tracks, _index=index_map,
        )

    # ------------------------------------------------------------------ queries
    @property
    def led_count(self) -> int:
        """LEDs in a frame (one under every hole)."""
        return len(self.holes)

    @property
    def holes_per_track(self) -> int:
        """Holes on one track including its start and game hole."""
        return self.holes_per_lap + 2

    @property
    def game_hole(self) -> int:
        """The game hole's number on every track."""
        return self.holes_per_lap + 1

    def hole(self, track: int, number: int) -> Hole:
        """The hole ``number`` on ``track``; :class:`KeyError` when there is none."""
        try:
            return self._index[(track, number)]
        except KeyError:
            raise KeyError(f"no hole {number} on track {track}") from None

    def hole_for_score(self, score: int) -> int:
        """The hole a peg showing ``score`` sits in (0 is the start hole).

        >>> b61 = BoardLayout.standard(laps=2, target=61)
        >>> b61.hole_for_score(0), b61.hole_for_score(60), b61.hole_for_score(61)
        (0, 60, 61)
        >>> BoardLayout.standard(laps=2).hole_for_score(61)  # 121 points: lap 2, hole 1
        1
        """
        if score < 0:
            raise ValueError(f"a score cannot be negative ({score})")
        if score > self.target:
            raise ValueError(f"score {score} is over the {self.target}-point game")
        if score == 0:
            return 0
        if score == self.target and score > self.holes_per_lap:
            return self.game_hole
        return (score - 1) % self.holes_per_lap + 1

    def lap_for_score(self, score: int) -> int:
        """Which lap (1 or 2) a score is on; the game hole counts as the last lap."""
        if score <= self.holes_per_lap:
            return 1
        return min(2, (score - 1) // self.holes_per_lap + 1)

    def skunked(self, score: int) -> int:
        """How many skunk lines a loser with ``score`` did not pass (0, 1 skunk, 2 double).

        >>> BoardLayout.standard().skunked(90), BoardLayout.standard().skunked(91)
        (1, 0)
        """
        return sum(1 for line in self.skunk_lines if score <= line.after)

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        """Everything the page needs to draw the board as SVG (see :meth:`to_json`)."""
        geo = self.geometry
        return {
            "version": 1,
            "units": "mm",
            "y_axis": "down",
            "tracks": self.tracks,
            "seats": list(SEATS[: self.tracks]),
            "laps": self.laps,
            "holes_per_lap": self.holes_per_lap,
            "game_hole": self.game_hole,
            "target": self.target,
            "wiring": self.wiring,
            "leds": self.led_count,
            "strips": [{"strip": s.number, "first_led": s.first, "count": s.count}
                       for s in self.strips],
            "outline": {"width": round(self.width, 3), "height": round(self.height, 3),
                        "corner_radius": geo.corner_radius},
            "hole_diameter": geo.hole_diameter,
            "pitch": round(geo.pitch, 4),
            "lane_pitch": geo.lane_pitch,
            "holes": [h.to_dict() for h in self.holes],
            "streets": [s.to_dict() for s in self.streets],
            "skunk_lines": [s.to_dict() for s in self.skunk_lines],
        }

    def to_json(self, indent: int | None = None) -> str:
        """The layout as JSON: ``holes`` (track, hole, kind, x, y, led, strip, street, row),
        ``streets`` (track, street, first/last hole, box), ``skunk_lines`` (after, hole, lap,
        one segment per track), ``outline`` (width, height, corner radius), ``strips``.

        >>> data = json.loads(BoardLayout.standard().to_json())
        >>> data["leds"], len(data["holes"]), data["holes"][0]["kind"], data["y_axis"]
        (244, 244, 'start', 'down')
        """
        return json.dumps(self.to_dict(), indent=indent)


def line_after_hole(below: int) -> int:
    """The score after which a skunk line "below ``below``" (the game's settings) is drawn:
    between that hole and the next, so a loser at that score or less is skunked.

    >>> line_after_hole(91), line_after_hole(61), line_after_hole(31)
    (90, 60, 30)
    """
    return below - 1
