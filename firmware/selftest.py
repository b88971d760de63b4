"""The self-test pattern ``crib leds test`` plays: it shows wiring, colour order and every LED.

1. every LED red, then green, then blue (a wrong colour order shows at once: WS2812B is GRB);
2. each track in its seat colour, one after the other (per-track wiring and the seats' tracks);
3. a dot walking the LEDs in strip order, ``step`` LEDs at a time (a break in the strip or a
   wrong snake stops the dot where the fault is);
4. every hole white at a low level, then dark.

Frames are plain :class:`~firmware.render.Frame` objects at ``level`` of full strength (the
power budget of an all-white strip is the reason the level is low).

>>> from firmware.layout import BoardLayout
>>> frames = list(selftest_frames(BoardLayout.standard(tracks=2), step=61))
>>> len(frames), frames[0].rgb(0), frames[-1].pixels == bytes(3 * 244)
(11, (26, 0, 0), True)
"""

from __future__ import annotations

from collections.abc import Iterator

from firmware.layout import SEATS, BoardLayout
from firmware.render import DEFAULT_COLOURS, Frame

__all__ = ["selftest_frames"]


def _fill(leds: int, rgb: tuple[int, int, int]) -> Frame:
    frame = Frame(leds, bytearray(bytes(rgb) * leds))
    return frame


def _scaled(rgb: tuple[int, int, int], level: float) -> tuple[int, int, int]:
    r, g, b = (max(1, round(c * level)) if c else 0 for c in rgb)
    return r, g, b


def selftest_frames(layout: BoardLayout, level: float = 0.1, step: int = 1) -> Iterator[Frame]:
    """The self-test frames for ``layout`` (see the module text); ``step`` LEDs per dot move."""
    if not 0.0 < level <= 1.0:
        raise ValueError(f"level must be in (0, 1], not {level}")
    if step < 1:
        raise ValueError(f"step must be at least 1, not {step}")
    n = layout.led_count
    top = max(1, round(255 * level))
    for rgb in ((top, 0, 0), (0, top, 0), (0, 0, top)):
        yield _fill(n, rgb)
    for track in range(layout.tracks):
        frame = Frame.blank(n)
        colour = _scaled(DEFAULT_COLOURS[SEATS[track]], level * 2 if level < 0.5 else 1.0)
        for hole in layout.holes:
            if hole.track == track:
                frame.set(hole.led, colour)
        yield frame
    for i in range(0, n, step):
        frame = Frame.blank(n)
        frame.set(i, (top, top, top))
        yield frame
    low = max(1, top // 4)
    yield _fill(n, (low, low, low))
    yield Frame.blank(n)
