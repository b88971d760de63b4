"""The peg board as SVG, drawn from the same layout the LEDs use (``firmware.layout``).

Every hole is a circle with ``id="h{track}-{hole}"`` in the group of holes; the page's script
moves each seat's two pegs (``id="peg-{seat}-front"`` and ``-back``) onto the hole a score maps
to. Streets of five are shaded, skunk lines drawn across the tracks, start and game holes marked;
a 61-point game on a board of 121 has its game hole, 61, ringed as well (``hole game goal``).

The drawing is for a phone across the table, not to scale: it is cropped to the holes (the
board's margins left out) and each hole is drawn wider than the drilled one (a third of the
pitch, at least the drilled diameter), so on a 390 px phone a hole is about 7 px across and a
peg, larger than its hole and ringed in white, stands out on the wood.

>>> from firmware.layout import BoardLayout
>>> svg = board_svg(BoardLayout.standard(tracks=2).to_dict())
>>> svg.count('<circle id="h') + svg.count('class="hole '), 'id="h1-121"' in svg, 'id="peg-B-back"' in svg
(244, True, True)
>>> '<circle class="hole game goal" id="h0-61"' in board_svg(BoardLayout.standard(target=61).to_dict())
True
"""

from __future__ import annotations

from typing import Any


def _n(value: float) -> str:
    """A coordinate with at most one decimal, as short as possible: ``12`` or ``18.9``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def board_svg(layout: dict[str, Any]) -> str:
    """The board ``layout`` (``BoardLayout.to_dict()``) as an inline SVG element."""
    pitch = float(layout.get("pitch", 6.94))
    r = max(float(layout.get("hole_diameter", 3.3)) / 2, pitch / 3)
    seats = list(layout.get("seats") or [])
    xs = [float(h["x"]) for h in layout["holes"]]
    ys = [float(h["y"]) for h in layout["holes"]]
    margin = pitch * 0.75
    x0, y0 = min(xs) - margin, min(ys) - margin
    width, height = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(x0)} {_n(y0)} {_n(width)} '
        f'{_n(height)}" class="board" role="img" aria-label="peg board" data-laps="{layout["laps"]}" '
        f'data-per-lap="{layout["holes_per_lap"]}" data-game-hole="{layout["game_hole"]}" '
        f'data-target="{layout["target"]}">',
        f'<rect class="wood" x="{_n(x0)}" y="{_n(y0)}" width="{_n(width)}" height="{_n(height)}" '
        f'rx="{_n(pitch * 0.6)}"/>',
    ]
    pad = pitch * 0.45
    for street in layout.get("streets", []):
        x0, y0, x1, y1 = (float(v) for v in street["box"])
        parts.append(
            f'<rect class="street s{street["street"] % 2}" x="{_n(min(x0, x1) - pad)}" '
            f'y="{_n(min(y0, y1) - pad)}" width="{_n(abs(x1 - x0) + 2 * pad)}" '
            f'height="{_n(abs(y1 - y0) + 2 * pad)}" rx="1.5"/>'
        )
    for line in layout.get("skunk_lines", []):
        for x1, y1, x2, y2 in line["segments"]:
            parts.append(
                f'<line class="skunk" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}">'
                f'<title>skunk line: {line["after"]} or less</title></line>'
            )
    parts.append('<g class="hole">')  # the holes take their colour from the group
    goal = int(layout["target"]) if int(layout["target"]) < int(layout["game_hole"]) else None
    for hole in layout["holes"]:
        kind = "game goal" if hole["hole"] == goal and layout["laps"] == 1 else hole["kind"]
        css = "" if kind == "hole" else f' class="hole {kind}"'
        parts.append(
            f'<circle{css} id="h{hole["track"]}-{hole["hole"]}" '
            f'cx="{_n(hole["x"])}" cy="{_n(hole["y"])}" r="{_n(r)}"/>'
        )
    parts.append("</g>")
    for seat in seats:
        for which in ("back", "front"):
            parts.append(
                f'<circle class="peg {which}" id="peg-{seat}-{which}" data-seat="{seat}" '
                f'cx="-10" cy="-10" r="{_n(pitch * 0.47)}"/>'
            )
    parts.append("</svg>")
    return "".join(parts)
