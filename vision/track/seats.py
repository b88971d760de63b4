"""Seats found from the cards (``--zones auto``): where each player sits, from the first card laid.

Each player's cards face that player, and a card laid in the play lies in front of its player,
between that player's edge of the frame and the pack. So the first card of a deal's play says
where the **pone** (the player after the dealer, who lays first) sits: the card's long axis
(its index's ``down``, :class:`vision.results.IndexSeen`) says which pair of edges (upright or
upside down: the bottom or the top; turned a quarter: the left or the right) and where it lies
along that axis says which of the two. A card's face is printed the same both ways up (its two
indices point opposite ways), so the axis comes from the card and the side from its place.

Play goes clockwise round the table (seen from above: bottom, left, top, right in the frame),
so one seat's edge sets every seat: the table protocol's layout (:mod:`vision.track.zones`: A
at the bottom, B at the top; three: B and C share the top; four: B left, C top, D right)
turned the quarters that bring the pone to its edge. The zones turn with it, the centre too.

>>> seats = Seats(2)
>>> seats.settle("B", (640, 620), (0.03, -1.0), (1280, 720))  # the pone's card at the bottom
2
>>> seats.zones.zone_of(640, 650, 1280, 720), seats.zones.zone_of(640, 60, 1280, 720)
('B', 'A')
>>> seats = Seats(4)
>>> seats.settle("C", (1180, 360), (-1.0, 0.1), (1280, 720))  # a quarter-turned card, right edge
1
>>> [seats.edge(s) for s in "ABCD"]
['left', 'top', 'right', 'bottom']
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from vision.track.zones import Rect, Zones

__all__ = ["EDGES", "HOME", "Seats", "edge_of", "turn_for", "turned"]

EDGES = ("bottom", "left", "top", "right")
"""The frame's edges clockwise, the way play goes round the table (seen from above)."""

HOME: dict[int, dict[str, str]] = {
    2: {"A": "bottom", "B": "top"},
    3: {"A": "bottom", "B": "top", "C": "top"},
    4: {"A": "bottom", "B": "left", "C": "top", "D": "right"},
}
"""Each seat's edge in the table protocol's layout (the default zones), by size of table."""

AXIS = 0.15  # a card's down within this of the diagonal (|dx| vs |dy|) says no axis: a card laid askew


def edge_of(center: tuple[float, float], down: tuple[float, float] | None,
            size: tuple[int, int]) -> str | None:
    """The edge of a ``size`` (w, h) frame where the player sits who laid the card lying at
    ``center`` (pixels) with its index's ``down``: the card's long axis picks the pair of edges,
    its place along that axis the edge. None where the card says nothing sure: no ``down``, a
    card laid askew (near the diagonal) or lying on the frame's middle line.

    >>> edge_of((640, 600), (0.0, 1.0), (1280, 720)), edge_of((640, 600), (0.0, -1.0), (1280, 720))
    ('bottom', 'bottom')
    >>> edge_of((100, 300), (0.98, -0.2), (1280, 720)), edge_of((600, 700), (0.7, 0.7), (1280, 720))
    ('left', None)
    """
    if down is None or size[0] <= 0 or size[1] <= 0:
        return None
    dx, dy = abs(down[0]), abs(down[1])
    norm = math.hypot(dx, dy)
    if norm == 0 or abs(dx - dy) / norm < AXIS:
        return None
    fx, fy = center[0] / size[0] - 0.5, center[1] / size[1] - 0.5
    if dy > dx:
        return None if abs(fy) < 0.02 else ("bottom" if fy > 0 else "top")
    return None if abs(fx) < 0.02 else ("right" if fx > 0 else "left")


def turn_for(players: int, seat: str, edge: str) -> int:
    """The quarter turns (clockwise) that bring ``seat``'s edge in the protocol's layout to
    ``edge``.

    >>> turn_for(2, "B", "top"), turn_for(2, "B", "right"), turn_for(2, "A", "top"), turn_for(4, "D", "top")
    (0, 1, 2, 3)
    """
    return (EDGES.index(edge) - EDGES.index(HOME[players][seat])) % 4


def _turn_rect(rect: Rect, turns: int) -> Rect:
    """A zone once the frame's table is turned ``turns`` quarters clockwise (bottom to left)."""
    x0, y0, x1, y1 = rect
    for _ in range(turns % 4):
        x0, y0, x1, y1 = 1 - y1, x0, 1 - y0, x1
    return (round(x0, 4), round(y0, 4), round(x1, 4), round(y1, 4))


def turned(zones: Zones, turns: int) -> Zones:
    """``zones`` turned ``turns`` quarters clockwise: the centre and every seat's zone.

    >>> turned(Zones.default(2), 1).seat("A"), turned(Zones.default(2), 1).centre
    ((0.0, 0.0, 0.5, 1.0), (0.35, 0.3, 0.65, 0.7))
    """
    return Zones(zones.players, _turn_rect(zones.centre, turns),
                 tuple((s, _turn_rect(r, turns)) for s, r in zones.seats))


@dataclass
class Seats:
    """Where the seats of a table of ``players`` sit, found from the cards: ``turn`` quarters
    from the protocol's layout (the guess until ``settled``), ``by`` the seat and edge that
    settled it and ``frame`` the frame its card was committed at."""

    players: int
    turn: int = 0
    settled: bool = False
    by: tuple[str, str] | None = field(default=None)
    frame: int | None = None

    def __post_init__(self) -> None:
        if self.players not in HOME:
            raise ValueError(f"seats are found for 2, 3 or 4 players, not {self.players}")

    @property
    def zones(self) -> Zones:
        """The zones of the seats as they sit now (the guess until settled)."""
        return turned(Zones.default(self.players), self.turn)

    def edge(self, seat: str) -> str:
        """The edge ``seat`` sits at."""
        return EDGES[(EDGES.index(HOME[self.players][seat]) + self.turn) % 4]

    def settle(self, seat: str, center: tuple[float, float], down: tuple[float, float] | None,
               size: tuple[int, int], frame: int | None = None) -> int | None:
        """``seat`` laid the card at ``center`` with its index's ``down``: settle the seats from
        it and return the turn; None (nothing settled) where the card says no edge sure, or
        ``seat`` is no seat here."""
        if seat not in HOME[self.players]:
            return None
        edge = edge_of(center, down, size)
        if edge is None:
            return None
        self.turn = turn_for(self.players, seat, edge)
        self.settled = True
        self.by = (seat, edge)
        self.frame = frame
        return self.turn

    def unsettle(self) -> None:
        """A new game: its seats are found again from its first card (the turn kept as the guess:
        the camera has not moved)."""
        self.settled = False
        self.by = None
        self.frame = None

    def to_json(self) -> dict[str, Any]:
        """``{"settled", "turn", "edges": {"A": "bottom", ...}, "by": seat or None, "frame"}``.

        >>> Seats(2, turn=1).to_json()["edges"]
        {'A': 'left', 'B': 'right'}
        """
        return {"settled": self.settled, "turn": self.turn,
                "edges": {seat: self.edge(seat) for seat in HOME[self.players]},
                "by": self.by[0] if self.by else None, "frame": self.frame}
