"""The printable peg board as OpenSCAD, generated from :class:`~firmware.layout.BoardLayout`.

The deck is two slabs, each a ``linear_extrude`` of a 2-D difference, so OpenSCAD's fast
polygon clipper cuts the holes and CGAL only joins two slabs. Only the top slab carries the 366
light-pipe holes: the whole 3-track deck renders to STL in about 40 s at ``$fn = 24`` (five
slabs with the holes in four took more than 14 minutes; 3-D ``difference`` cylinders longer).

The deck, seen from the top (OpenSCAD's y points up: ``y_scad = height - y_layout``), z up from
its underside (``DeckSpec.thickness`` = 9 mm):

========  ===========  ====================================================================
slab      z (mm)       cut out
========  ===========  ====================================================================
bottom    0 .. 5.5     strip channel under every row (the strip is held against its ceiling
                       by foam tape on the lid), wire trenches joining the rows at both ends,
                       Pico cavity, cable slots with zig-zag strain relief, button
                       counterbores, screw pilots, bow-tie key pockets across the seams
top       5.5 .. 9     a light-pipe hole over every LED, the button holes (a 3.5 mm panel)
========  ===========  ====================================================================

The skunk lines are shown by the LEDs (a faint mark in the hole after each line), not engraved.

The board is wider than a 220 mm bed, so the deck is cut into tiles along straight seams
between holes (between columns 15 and 16, and in a gap between groups of rows when the board
is taller than the bed); printed bow-tie keys glue into the pockets across each seam, and the
lid (2.5 mm, screwed into the pilots) is cut at other places so that it bridges the seams.

``part`` picks what to render: ``board`` (the whole deck, as assembled), ``deck-N``,
``lid-N``, ``key`` (one bow-tie key), ``mast-clamp``, ``elbow``, ``camera-head``, ``assembly``.

>>> from firmware.layout import BoardLayout
>>> model = BoardModel(BoardLayout.standard(tracks=2))
>>> [t.size for t in model.deck_tiles()]
[(119.6, 180.0), (112.7, 180.0)]
>>> model.parts()[:4]
['board', 'deck-1', 'deck-2', 'lid-1']
>>> "holes = [" in model.scad()
True
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from firmware.layout import ROW_HOLES, BoardLayout
from firmware.mast import MastSpec

__all__ = ["BED", "BoardModel", "DeckSpec", "Tile", "scad_for"]

BED = 220.0  # the print bed the parts must fit (mm), with BED_MARGIN to spare
BED_MARGIN = 5.0


@dataclass(frozen=True)
class DeckSpec:
    """Thicknesses and part sizes in millimetres."""

    thickness: float = 9.0
    bottom: float = 5.5  # the bottom slab: channels (strip 1.9 mm + foam tape), cavity, pilots
    channel_clearance: float = 0.8  # channel width = strip width + this
    trench_width: float = 3.5  # jumper wires between rows at the row ends
    pico: tuple[float, float] = (53.0, 23.0)  # cavity for a 51 x 21 mm Pico, ``bottom`` deep
    slot: float = 12.0  # cable slot width (through the bottom slab; the lid is open under the plug)
    button_hole: float = 12.2  # 12 mm panel-mount momentary push buttons
    button_counterbore: float = 16.0  # room for the nut, leaving a 3.5 mm panel
    button_pitch: float = 20.0
    pilot: float = 2.5  # M3 (ST2.9) self-tapping screw pilot through the bottom slab
    lid_thickness: float = 2.5
    lid_hole: float = 3.4
    key: tuple[float, float, float] = (9.0, 6.0, 3.5)  # bow-tie length (fits a row gap), ends, waist
    fn: int = 24


@dataclass(frozen=True)
class Tile:
    """A printable piece: the rectangle ``x0..x1`` x ``y0..y1`` (OpenSCAD coordinates)."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def size(self) -> tuple[float, float]:
        return round(self.x1 - self.x0, 1), round(self.y1 - self.y0, 1)


def _grid(prefix: str, xs: list[float], ys: list[float]) -> list[Tile]:
    """The tiles between cuts ``xs`` (left to right) and ``ys`` (top to bottom), row by row.

    >>> [t.name for t in _grid("lid", [0.0, 5.0, 9.0], [8.0, 0.0])]
    ['lid-1', 'lid-2']
    """
    return [Tile(f"{prefix}-{j * (len(xs) - 1) + i + 1}", xs[i], ys[j + 1], xs[i + 1], ys[j])
            for j in range(len(ys) - 1) for i in range(len(xs) - 1)]


def _fmt(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _pts(points: list[tuple[float, ...]]) -> str:
    return "[" + ", ".join("[" + ", ".join(_fmt(c) for c in p) + "]" for p in points) + "]"


@dataclass
class BoardModel:
    """The board's OpenSCAD model for ``layout``; :meth:`scad` writes the file."""

    layout: BoardLayout
    spec: DeckSpec = field(default_factory=DeckSpec)
    mast: MastSpec = field(default_factory=MastSpec)
    bed: float = BED

    # --------------------------------------------------------------- geometry in scad coords
    @property
    def width(self) -> float:
        return self.layout.width

    @property
    def height(self) -> float:
        return self.layout.height

    def y(self, y_layout: float) -> float:
        """OpenSCAD's y (up) for a layout y (down)."""
        return self.height - y_layout

    def holes(self) -> list[tuple[float, float]]:
        """Hole centres in OpenSCAD coordinates, in LED order (index = LED number)."""
        by_led = sorted(self.layout.holes, key=lambda h: h.led)
        return [(h.x, self.y(h.y)) for h in by_led]

    def rows(self) -> list[tuple[float, float, float]]:
        """(x from, x to, y) of the strip channel under every row."""
        rows: dict[int, list[float]] = {}
        ys: dict[int, float] = {}
        for h in self.layout.holes:
            rows.setdefault(h.row, []).append(h.x)
            ys[h.row] = self.y(h.y)
        pitch = self.layout.geometry.pitch
        return [(min(xs) - pitch / 2 - 1.5, max(xs) + pitch / 2 + 1.5, ys[r])
                for r, xs in sorted(rows.items())]

    def _row_ys(self) -> list[float]:
        return [r[2] for r in self.rows()]

    def _channel_half(self) -> float:
        return (self.layout.geometry.strip_width + self.spec.channel_clearance) / 2

    def gaps(self) -> list[float]:
        """y (OpenSCAD) of the middle of every gap between groups of rows, top to bottom."""
        ys = self._row_ys()
        step = self.layout.geometry.lane_pitch
        return [(a + b) / 2 for a, b in itertools.pairwise(ys) if a - b > step + 1e-6]

    def band(self) -> tuple[float, float]:
        """(y bottom, y top) of the band below the holes (Pico, buttons, cable exits)."""
        top = min(self._row_ys()) - self._channel_half() - 2.0
        return 0.0, top

    def x_seam(self) -> float:
        """x of the deck's vertical seam: halfway between columns 15 and 16."""
        g = self.layout.geometry
        x0 = g.margin_x + g.pitch
        return x0 + (ROW_HOLES // 2 - 0.5) * g.pitch

    def deck_tiles(self) -> list[Tile]:
        """The deck's printable tiles, left to right, top to bottom."""
        fit = self.bed - BED_MARGIN
        xs = [0.0, self.width]
        if self.width > fit:
            xs = [0.0, self.x_seam(), self.width]
        ys = [self.height, 0.0]
        if self.height > fit:
            gaps = self.gaps()  # cut in the gap nearest the middle
            mid = min(gaps, key=lambda g: abs(g - self.height / 2))
            ys = [self.height, mid, 0.0]
        tiles = _grid("deck", xs, ys)
        return tiles

    def lid_tiles(self) -> list[Tile]:
        """The lid's pieces, cut away from the deck's seams so that they bridge them."""
        fit = self.bed - BED_MARGIN
        xs = [0.0, self.width]
        if self.width > fit:
            xs = [0.0, round(self.width * 0.35, 1), self.width]
        ys = [self.height, 0.0]
        if self.height > fit:
            gaps = self.gaps()
            deck_cut = min(gaps, key=lambda g: abs(g - self.height / 2))
            others = [g for g in gaps if abs(g - deck_cut) > 1] or [self.band()[1] / 2]
            cut = min(others, key=lambda g: abs(g - self.height / 2))
            ys = [self.height, cut, 0.0]
        tiles = _grid("lid", xs, ys)
        for t in tiles:
            if max(t.size) > fit:
                raise ValueError(f"{t.name} ({t.size[0]} x {t.size[1]} mm) does not fit the bed")
        return tiles

    def keep_out(self) -> list[tuple[float, float, float, float]]:
        """Rectangles (x0, y0, x1, y1) no screw may touch: channels, trenches, the Pico cavity,
        the cable slots with their strain-relief pockets, the button counterbores."""
        s = self.spec
        half = self._channel_half()
        rows = self.rows()
        out = [(x0, y - half, x1, y + half) for x0, x1, y in rows]
        top = max(r[2] for r in rows)
        px, py = self.pico()
        for x in (rows[0][0], rows[0][1] - s.trench_width):
            out.append((x, py, x + s.trench_width, top))
        out.append((rows[0][0], py - s.trench_width / 2, px, py + s.trench_width / 2))
        out.append((px - s.pico[0] / 2, py - s.pico[1] / 2, px + s.pico[0] / 2, py + s.pico[1] / 2))
        for _, x in self.slots():
            out.append((x - 15, 0, x + 15, 17))
            out.append((x - s.slot / 2, 0, x + s.slot / 2, py))
        xs = [x for _, x in self.slots()]
        out.append((min(xs), py - 4, max(xs), py + 4))
        r = s.button_counterbore / 2
        out += [(x - r, y - r, x + r, y + r) for _, x, y in self.buttons()]
        return out

    def screws(self) -> list[tuple[float, float]]:
        """Screw positions (pilots in the deck, holes in the lid): on the lines through the gaps
        between groups and the band, 12 mm from every seam of deck and lid, 4 mm from the board's
        edge, and clear (by 1.5 mm) of every cut-out in :meth:`keep_out`."""
        seams_x = [t.x0 for t in self.deck_tiles() + self.lid_tiles() if t.x0 > 0]
        seams_y = [t.y0 for t in self.deck_tiles() + self.lid_tiles() if t.y0 > 0]
        band_top = self.band()[1]
        lines = [*self.gaps(), band_top - 4.0, 5.0]
        clear = self.spec.pilot / 2 + 1.5
        blocked = self.keep_out()
        out = []
        for y in lines:
            if any(abs(y - s) < 8 for s in seams_y):
                continue
            for k in range(11):
                x = 8.0 + k * (self.width - 16.0) / 10
                if any(abs(x - s) < 12 for s in seams_x):
                    continue
                if any(x0 - clear < x < x1 + clear and y0 - clear < y < y1 + clear
                       for x0, y0, x1, y1 in blocked):
                    continue
                if out and out[-1][1] == y and x - out[-1][0] < 30:
                    continue  # one screw every 30 mm or more along a line
                out.append((x, y))
        return out

    def keys(self) -> list[tuple[float, float, float]]:
        """Bow-tie key pockets across the deck seams: (x, y, angle)."""
        out = []
        tiles = self.deck_tiles()
        xs = sorted({t.x0 for t in tiles if t.x0 > 0})
        ys = sorted({t.y0 for t in tiles if t.y0 > 0})
        places = [*self.gaps(), self.band()[1] - 6.0, 6.5]
        for x in xs:
            out += [(x, y, 0.0) for y in places if all(abs(y - s) > 10 for s in ys)]
        for y in ys:
            for k in range(4):
                x = 30.0 + k * (self.width - 60.0) / 3
                if all(abs(x - s) > 10 for s in xs):
                    out.append((x, y, 90.0))
        return out

    def pico(self) -> tuple[float, float]:
        """Centre of the Pico cavity (in the band, left of the buttons)."""
        _, top = self.band()
        return 12.0 + self.spec.pico[0] / 2, top / 2 + 1.0

    def buttons(self) -> list[tuple[str, float, float]]:
        """(name, x, y) of the buttons in the band: next, undo, then a go per seat."""
        names = ["next", "undo"] + [f"go-{s}" for s in "ABC"[: self.layout.tracks]]
        _, top = self.band()
        p = self.spec.button_pitch
        x_last = self.width - 14.0
        return [(n, x_last - (len(names) - 1 - i) * p, top / 2) for i, n in enumerate(names)]

    def slots(self) -> list[tuple[str, float]]:
        """Cable exits through the bottom edge: (name, x)."""
        px, _ = self.pico()
        return [("pi", px), ("power", px + self.spec.pico[0] / 2 + 14.0)]

    def parts(self) -> list[str]:
        """The names ``part`` accepts."""
        return (["board"] + [t.name for t in self.deck_tiles()] + [t.name for t in self.lid_tiles()]
                + ["key", "mast-clamp", "elbow", "camera-head", "assembly"])

    # --------------------------------------------------------------- the file
    def scad(self, part: str = "board", fn: int | None = None) -> str:
        """The OpenSCAD source; ``part`` is the default part, ``fn`` the circles' ``$fn``."""
        if part not in self.parts():
            raise ValueError(f"unknown part {part!r}: use one of {', '.join(self.parts())}")
        s, lay, g = self.spec, self.layout, self.layout.geometry
        head = [
            "// The LED cribbage peg board, generated by firmware/scad.py from firmware/layout.py.",
            "// Do not edit: run `crib board scad --out hardware/board.scad` after changing the layout.",
            f"// {lay.tracks} tracks, {lay.holes_per_lap + 1}-hole laps x {lay.laps}, {lay.led_count} LEDs"
            f" ({lay.wiring} wiring), {_fmt(self.width)} x {_fmt(self.height)} mm.",
            "// Render one part: openscad -D 'part=\"deck-1\"' -o deck-1.stl board.scad",
            f"// parts: {', '.join(self.parts())}",
            "",
            f'part = "{part}";',
            f"fn = {fn or s.fn};",
            f"W = {_fmt(self.width)}; H = {_fmt(self.height)}; R = {_fmt(g.corner_radius)};",
            f"T = {_fmt(s.thickness)}; BOTTOM = {_fmt(s.bottom)};  // deck, bottom slab",
            f"HOLE = {_fmt(g.hole_diameter)};",
            f"CHANNEL = {_fmt(2 * self._channel_half())}; TRENCH = {_fmt(s.trench_width)};",
            f"PICO = {_pts([s.pico])[1:-1]}; SLOT = {_fmt(s.slot)};",
            f"BUTTON = {_fmt(s.button_hole)}; COUNTERBORE = {_fmt(s.button_counterbore)};",
            f"PILOT = {_fmt(s.pilot)};",
            f"LID = {_fmt(s.lid_thickness)}; LID_HOLE = {_fmt(s.lid_hole)};",
            f"KEY = {_pts([s.key])[1:-1]};",
            f"holes = {_pts(self.holes())};  // x, y of the hole over LED i",
            f"rows = {_pts(self.rows())};  // strip channel: x from, x to, y",
            f"screws = {_pts(self.screws())};",
            f"keys = {_pts(self.keys())};",
            f"pico = {_pts([self.pico()])[1:-1]};",
            f"buttons = {_pts([(x, y) for _, x, y in self.buttons()])};  "
            f"// {', '.join(n for n, _, _ in self.buttons())}",
            f"slots = {_pts([(x,) for _, x in self.slots()])};  // {', '.join(n for n, _ in self.slots())}",
            f"deck_tiles = {_pts([(t.x0, t.y0, t.x1, t.y1) for t in self.deck_tiles()])};",
            f"lid_tiles = {_pts([(t.x0, t.y0, t.x1, t.y1) for t in self.lid_tiles()])};",
            self.mast.scad_constants(),
        ]
        return "\n".join(head) + "\n" + _BODY


_BODY = r"""
$fn = fn;
EPS = 0.01;

module outline2d() { offset(r = R) offset(delta = -R) square([W, H]); }
module tile2d(t) {  // the outline, or its part inside tile t (x0, y0, x1, y1)
    if (len(t) == 4)
        intersection() { outline2d(); translate([t[0], t[1]]) square([t[2] - t[0], t[3] - t[1]]); }
    else outline2d();
}
module circles(pts, d) { for (p = pts) translate(p) circle(d = d); }
module bowtie(k) {  // k: x, y, angle
    translate([k[0], k[1]]) rotate(k[2])
        polygon([[-KEY[0] / 2, -KEY[1] / 2], [0, -KEY[2] / 2], [KEY[0] / 2, -KEY[1] / 2],
                 [KEY[0] / 2, KEY[1] / 2], [0, KEY[2] / 2], [-KEY[0] / 2, KEY[1] / 2]]);
}
module channels2d() {
    for (r = rows) translate([r[0], r[2] - CHANNEL / 2]) square([r[1] - r[0], CHANNEL]);
    // wire trenches at both ends join every row to the next and the last row to the cavity
    ys = [for (r = rows) r[2]];
    for (x = [rows[0][0] + TRENCH / 2, rows[0][1] - TRENCH / 2])
        translate([x - TRENCH / 2, pico[1]]) square([TRENCH, max(ys) - pico[1]]);
    translate([rows[0][0], pico[1] - TRENCH / 2]) square([pico[0] - rows[0][0], TRENCH]);
}
module cavity2d() { translate(pico - [PICO[0], PICO[1]] / 2) square([PICO[0], PICO[1]]); }
module slots2d() {  // a slot from the edge, widened around two posts the cable weaves past
    for (s = slots) {
        translate([s[0] - SLOT / 2, -1]) square([SLOT, pico[1] + 1]);
        difference() {
            translate([s[0] - 15, 3]) square([30, 14]);
            translate([s[0] - 6, 8]) circle(d = 5);
            translate([s[0] + 6, 12]) circle(d = 5);
        }
    }
    translate([slots[0][0], pico[1] - 4]) square([slots[1][0] - slots[0][0], 8]);
}
// the cut-outs of the bottom (1) and top (2) slab
module cuts2d(i) {
    if (i == 1) {
        channels2d(); cavity2d(); slots2d(); circles(buttons, COUNTERBORE); circles(screws, PILOT);
        for (k = keys) bowtie(k);
    }
    if (i == 2) { circles(holes, HOLE); circles(buttons, BUTTON); }
}
module deck_layer(i, t) {  // t: x0, y0, x1, y1 (a tile) or [] for the whole deck
    z0 = i == 1 ? 0 : BOTTOM;
    translate([0, 0, z0]) linear_extrude(height = i == 1 ? BOTTOM : T - BOTTOM) difference() {
        tile2d(t);
        cuts2d(i);
    }
}
module deck(t = []) { union() { deck_layer(1, t); deck_layer(2, t); } }
module lid(t = []) {
    linear_extrude(height = LID) difference() {
        tile2d(t);
        circles(screws, LID_HOLE);
        // open under the cable slots and the Pico's USB plug (its moulding is 7.5 mm thick)
        for (s = slots) translate([s[0] - SLOT / 2, -1]) square([SLOT, pico[1] - PICO[1] / 2 + 1]);
    }
}
module key() {  // 3 % smaller than its pocket for the glue, 0.3 mm below the underside
    linear_extrude(height = BOTTOM - 0.3) scale(0.97) bowtie([0, 0, 0]);
}
""" + MastSpec.SCAD_MODULES + r"""
module tile_part(tiles, n, is_lid) {
    t = tiles[n - 1];
    // printed top face down: flip, then put the tile's corner at the origin
    if (is_lid) translate([-t[0], -t[1], 0]) lid(t);
    else translate([-t[0], t[3], T]) rotate([180, 0, 0]) deck(t);
}
function num(s, k) = ord(s[k]) - 48;
function tail(s, k) = len(s) == k + 1 ? num(s, k) : num(s, k) * 10 + num(s, k + 1);

if (part == "board") deck();
else if (part == "assembly") {
    translate([0, 0, LID]) deck();
    color("gray") lid();
    translate([W / 2, H + 40, 0]) mast_assembly();
}
else if (part == "key") key();
else if (part == "mast-clamp") mast_clamp();
else if (part == "camera-head") camera_head();
else if (part == "elbow") elbow();
else if (len(part) > 5 && part[0] == "d") tile_part(deck_tiles, tail(part, 5), false);
else if (len(part) > 4 && part[0] == "l") tile_part(lid_tiles, tail(part, 4), true);
"""


def scad_for(layout: BoardLayout, part: str = "board", fn: int | None = None) -> str:
    """The OpenSCAD source of ``layout``'s board (see :class:`BoardModel`)."""
    return BoardModel(layout).scad(part, fn)


def hole_area(diameter: float, fn: int) -> float:
    """Area of OpenSCAD's ``circle(d=diameter, $fn=fn)`` (a regular ``fn``-gon).

    >>> round(hole_area(3.3, 24), 3), round(math.pi * 3.3 ** 2 / 4, 3)
    (8.456, 8.553)
    """
    r = diameter / 2
    return fn / 2 * r * r * math.sin(2 * math.pi / fn)
