"""Render a game state (every seat's front and back peg) to one LED frame.

Each seat's front peg is lit at full strength in the seat's colour and its back peg dim, like
two wooden pegs leapfrogging; the start and game holes, and optionally the first hole of each
street and the holes just past the skunk lines, get faint marker light. Values are gamma
corrected (the LEDs are linear, eyes are not) and the whole frame is scaled down when its
estimated current would exceed the power budget of the supply.

>>> from firmware.layout import BoardLayout
>>> board = BoardLayout.standard(tracks=2)
>>> frame = render_frame(board, {"A": (45, 40), "B": (30, 28)})
>>> [(e.seat, e.peg, e.hole) for e in frame.pegs()]
[('A', 'front', 45), ('A', 'back', 40), ('B', 'front', 30), ('B', 'back', 28)]
>>> frame.lit[0].index == board.hole(0, 45).led, frame.leds
(True, 244)
>>> frame.rgb(board.hole(0, 45).led)  # red (230, 30, 30) after gamma 2.2
(203, 2, 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware.layout import SEATS, BoardLayout, seat_track

__all__ = [
    "DEFAULT_COLOURS",
    "Frame",
    "Lit",
    "RenderOptions",
    "estimate_current_ma",
    "gamma_table",
    "render_frame",
]

RGB = tuple[int, int, int]

#: Seat colours before gamma: A red, B blue, C green (the classic peg colours).
DEFAULT_COLOURS: dict[str, RGB] = {"A": (230, 30, 30), "B": (40, 90, 255), "C": (30, 200, 60)}


@dataclass(frozen=True)
class RenderOptions:
    """How a frame is lit. Levels are fractions of the full colour, applied in linear light.

    ``supply_ma`` is the current the LED supply can give the strip; ``ma_per_channel`` what one
    colour channel at full duty draws (20 mA for a WS2812B/SK6812/APA102 die) and
    ``idle_ma_per_led`` what an LED draws when dark (about 1 mA for a WS2812B).
    """

    brightness: float = 1.0
    back_level: float = 0.22
    gamma: float = 2.2
    markers: bool = True  # start and game holes
    street_marks: bool = False  # first hole of every street
    skunk_marks: bool = True  # the first hole past each skunk line
    marker_level: float = 0.05
    marker_colour: RGB = (255, 255, 255)
    skunk_colour: RGB = (255, 40, 0)
    supply_ma: float = 2000.0
    ma_per_channel: float = 20.0
    idle_ma_per_led: float = 1.0

    def __post_init__(self) -> None:
        for name in ("brightness", "back_level", "marker_level"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {value}")
        if self.gamma <= 0:
            raise ValueError(f"gamma must be positive, not {self.gamma}")
        if not self.supply_ma > 0 or self.supply_ma == float("inf"):
            raise ValueError(f"supply_ma must be a positive number of mA, not {self.supply_ma}")


@dataclass(frozen=True)
class Lit:
    """One lit LED: its index in the frame, colour sent, and what it shows.

    ``peg`` is "front" or "back" for a peg, ``None`` for a marker (then ``mark`` says which).
    """

    index: int
    rgb: RGB
    seat: str | None
    peg: str | None
    hole: int
    track: int
    score: int | None = None
    mark: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "rgb": list(self.rgb), "seat": self.seat,
                               "peg": self.peg, "hole": self.hole, "track": self.track}
        if self.score is not None:
            out["score"] = self.score
        if self.mark is not None:
            out["mark"] = self.mark
        return out


@dataclass
class Frame:
    """RGB for every LED (``pixels``: 3 bytes an LED, R G B, after gamma and power cap) and
    the list of lit LEDs, pegs first. ``current_ma`` is the estimated draw, ``scale`` the
    factor the power cap applied (1.0 when the frame was within budget)."""

    leds: int
    pixels: bytearray
    lit: list[Lit] = field(default_factory=list)
    current_ma: float = 0.0
    scale: float = 1.0

    @classmethod
    def blank(cls, leds: int) -> Frame:
        """A frame with every LED off.

        >>> Frame.blank(3).pixels
        bytearray(b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00')
        """
        return cls(leds, bytearray(3 * leds))

    def rgb(self, index: int) -> RGB:
        """The colour sent to LED ``index``."""
        p = self.pixels
        i = 3 * index
        return p[i], p[i + 1], p[i + 2]

    def set(self, index: int, rgb: RGB) -> None:
        """Set LED ``index`` (no gamma, no cap: the value goes to the strip as given)."""
        i = 3 * index
        self.pixels[i : i + 3] = bytes(rgb)

    def copy(self) -> Frame:
        return Frame(self.leds, bytearray(self.pixels), list(self.lit), self.current_ma,
                     self.scale)

    def pegs(self) -> Iterator[Lit]:
        """The lit entries that are pegs (not markers)."""
        return (e for e in self.lit if e.peg is not None)

    def to_dict(self, markers: bool = True) -> dict[str, Any]:
        """``{"leds": N, "lit": [...]}`` as ``crib leds render --json`` prints it."""
        lit = [e.to_dict() for e in self.lit if markers or e.peg is not None]
        return {"leds": self.leds, "lit": lit, "current_ma": round(self.current_ma, 1),
                "scale": round(self.scale, 4)}


def gamma_table(gamma: float) -> list[float]:
    """Linear light (0..1) for every 8-bit colour value.

    >>> t = gamma_table(2.2)
    >>> t[0], t[255], round(t[128], 3)
    (0.0, 1.0, 0.22)
    """
    return [(v / 255.0) ** gamma for v in range(256)]


_GAMMA_CACHE: dict[float, list[float]] = {}


def _linear(colour: RGB, level: float, table: list[float]) -> tuple[float, float, float]:
    return (table[colour[0]] * level, table[colour[1]] * level, table[colour[2]] * level)


def estimate_current_ma(pixels: bytes | bytearray, options: RenderOptions) -> float:
    """Estimated strip current for ``pixels``: each channel draws in proportion to its PWM duty.

    >>> estimate_current_ma(bytes([255, 255, 255, 0, 0, 0]), RenderOptions())
    62.0
    """
    leds = len(pixels) // 3
    return sum(pixels) / 255.0 * options.ma_per_channel + leds * options.idle_ma_per_led


def render_frame(
    layout: BoardLayout,
    pegs: Mapping[str, tuple[int, int]],
    colours: Mapping[str, RGB] | None = None,
    options: RenderOptions | None = None,
) -> Frame:
    """The frame for ``pegs`` (seat letter → (front score, back score)).

    A seat whose two pegs are in the same hole (the start of the game) shows one front peg.
    Raises :class:`ValueError` for an unknown seat, a seat beyond the board's tracks, a
    negative score, a score over the game, or a back peg ahead of its front peg.

    >>> render_frame(BoardLayout.standard(), {"A": (10, 12)})
    Traceback (most recent call last):
    ...
    ValueError: seat A: the back peg (12) cannot be ahead of the front peg (10)
    """
    opts = options or RenderOptions()
    palette = dict(DEFAULT_COLOURS)
    if colours:
        palette.update({k.upper(): v for k, v in colours.items()})
    table = _GAMMA_CACHE.get(opts.gamma)
    if table is None:
        table = _GAMMA_CACHE.setdefault(opts.gamma, gamma_table(opts.gamma))

    # linear light per LED, then the lit entries in the order they are listed
    light: dict[int, tuple[float, float, float]] = {}
    entries: list[tuple[int, str | None, str | None, int, int, int | None, str | None]] = []

    def put(index: int, value: tuple[float, float, float], *entry: Any) -> None:
        light[index] = value
        entries.append((index, *entry))

    if opts.markers or opts.street_marks or opts.skunk_marks:
        marker_light = _linear(opts.marker_colour, opts.marker_level, table)
        skunk_light = _linear(opts.skunk_colour, opts.marker_level, table)
        for track in range(layout.tracks):
            if opts.markers:
                for number, mark in ((0, "start"), (layout.game_hole, "game")):
                    h = layout.hole(track, number)
                    put(h.led, marker_light, None, None, number, track, None, mark)
            if opts.street_marks:
                for street in layout.streets:
                    if street.track == track:
                        h = layout.hole(track, street.first)
                        put(h.led, marker_light, None, None, h.number, track, None, "street")
            if opts.skunk_marks:
                for line in layout.skunk_lines:
                    h = layout.hole(track, line.hole + 1)
                    put(h.led, skunk_light, None, None, h.number, track, None, "skunk")

    peg_entries: list[tuple[int, str | None, str | None, int, int, int | None, str | None]] = []
    for seat in sorted(pegs, key=lambda s: s.upper()):
        front, back = pegs[seat]
        letter = seat.upper()
        track = seat_track(letter)
        if track >= layout.tracks:
            raise ValueError(f"seat {letter} has no track on a {layout.tracks}-track board")
        if back > front:
            raise ValueError(
                f"seat {letter}: the back peg ({back}) cannot be ahead of the front peg ({front})")
        colour = palette.get(letter, DEFAULT_COLOURS[SEATS[track]])
        front_hole = layout.hole_for_score(front)
        back_hole = layout.hole_for_score(back)
        front_led = layout.hole(track, front_hole).led
        back_led = layout.hole(track, back_hole).led
        if back_led != front_led:
            light[back_led] = _linear(colour, opts.back_level, table)
        light[front_led] = _linear(colour, 1.0, table)
        peg_entries.append((front_led, letter, "front", front_hole, track, front, None))
        if back_led != front_led:
            peg_entries.append((back_led, letter, "back", back_hole, track, back, None))

    # the power cap: estimate the draw at full scale and shrink everything to fit
    leds = layout.led_count
    idle = leds * opts.idle_ma_per_led
    if idle >= opts.supply_ma:
        raise ValueError(f"a {opts.supply_ma:g} mA supply cannot even run {leds} dark LEDs "
                         f"({idle:g} mA idle)")
    pixels, scale = _fit(light, leds, opts)
    peg_only = {e[0] for e in peg_entries}
    if scale == 0.0 and len(peg_only) < len(light):
        # the markers' minimum light alone overflows the budget: drop them, keep the pegs
        light = {i: v for i, v in light.items() if i in peg_only}
        pixels, scale = _fit(light, leds, opts)

    peg_leds = {e[0] for e in peg_entries}
    lit = [Lit(i, (pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2]), seat, peg, hole, track,
               score, mark)
           for i, seat, peg, hole, track, score, mark in peg_entries]
    lit += [Lit(i, (pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2]), seat, peg, hole, track,
                score, mark)
            for i, seat, peg, hole, track, score, mark in entries if i not in peg_leds]
    return Frame(leds, pixels, lit, estimate_current_ma(pixels, opts), scale)


def _fit(light: dict[int, tuple[float, float, float]], leds: int,
         opts: RenderOptions) -> tuple[bytearray, float]:
    """Quantised pixels within the power budget and the scale applied (0.0: nothing fits).

    ``light`` is each lit LED's linear light before ``opts.brightness``. The scale is first
    the budget over the draw at full duty; rounding, and keeping every lit channel at least 1,
    can still overshoot, so it shrinks until the estimate of the bytes sent is within the
    supply. When even the 1s are too much the strip is dark (scale 0.0), never over budget.

    >>> pixels, scale = _fit({0: (1.0, 1.0, 1.0)}, 2, RenderOptions(supply_ma=40.0))
    >>> list(pixels), round(scale, 3), estimate_current_ma(pixels, RenderOptions()) <= 40.0
    ([160, 160, 160, 0, 0, 0], 0.628, True)
    """
    idle = leds * opts.idle_ma_per_led
    level = opts.brightness
    duty = sum(r + g + b for r, g, b in light.values()) * level
    scale = 1.0
    if duty * opts.ma_per_channel + idle > opts.supply_ma and duty > 0:
        scale = (opts.supply_ma - idle) / (duty * opts.ma_per_channel)
    pixels = _quantise(light, leds, level * scale)
    # rounding (and keeping every lit LED at least 1) can overshoot the budget a little:
    # shrink until the estimate of the bytes actually sent is within it
    for _ in range(20):
        current = estimate_current_ma(pixels, opts)
        if current <= opts.supply_ma:
            return pixels, scale
        scale *= (opts.supply_ma - idle) / (current - idle) * 0.995
        pixels = _quantise(light, leds, level * scale)
    if estimate_current_ma(pixels, opts) > opts.supply_ma:
        return bytearray(3 * leds), 0.0  # nothing lit fits: dark rather than over the budget
    return pixels, scale


def _quantise(light: dict[int, tuple[float, float, float]], leds: int, level: float) -> bytearray:
    pixels = bytearray(3 * leds)
    for index, (r, g, b) in light.items():
        i = 3 * index
        pixels[i] = _to_byte(r * level)
        pixels[i + 1] = _to_byte(g * level)
        pixels[i + 2] = _to_byte(b * level)
    return pixels


def _to_byte(linear: float) -> int:
    """Round linear light to the 8-bit PWM value; anything lit stays at least 1."""
    if linear <= 0.0:
        return 0
    return max(1, min(255, round(linear * 255.0)))
