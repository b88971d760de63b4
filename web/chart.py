"""The score-over-time chart of a game, drawn as a small self-contained SVG.

>>> svg = score_chart({"Alice": [0, 2, 8], "Bob": [0, 5, 5]}, target=121,
...                   colours={"Alice": "#c0392b", "Bob": "#2471a3"})
>>> svg.startswith("<svg") and "Alice 8" in svg and "polyline" in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

WIDTH, HEIGHT, PAD = 320, 180, 28
DEFAULT_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b7950b")


def score_chart(
    series: Mapping[str, Sequence[int]],
    target: int = 121,
    colours: Mapping[str, str] | None = None,
    skunk_lines: Sequence[int] = (),
) -> str:
    """An SVG line per player: score (0 to ``target``) after each scoring event."""
    colours = dict(colours or {})
    steps = max((len(s) for s in series.values()), default=1)
    steps = max(steps - 1, 1)
    plot_w, plot_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD

    def x(i: int) -> float:
        return PAD + plot_w * i / steps

    def y(score: int) -> float:
        return HEIGHT - PAD - plot_h * min(max(score, 0), target) / max(target, 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="chart" role="img" aria-label="score over time">',
        f'<rect x="{PAD}" y="{PAD}" width="{plot_w}" height="{plot_h}" fill="none" '
        f'stroke="#999" stroke-width="0.5"/>',
        f'<text x="{PAD - 4}" y="{y(target) + 4:.1f}" font-size="9" text-anchor="end">'
        f"{target}</text>",
        f'<text x="{PAD - 4}" y="{y(0) + 3:.1f}" font-size="9" text-anchor="end">0</text>',
    ]
    for line in skunk_lines:
        parts.append(
            f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(line):.1f}" y2="{y(line):.1f}" '
            f'stroke="#999" stroke-dasharray="3 3" stroke-width="0.5"/>'
        )
    for n, (name, scores) in enumerate(series.items()):
        colour = colours.get(name) or DEFAULT_COLOURS[n % len(DEFAULT_COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(s):.1f}" for i, s in enumerate(scores))
        parts.append(
            f'<polyline fill="none" stroke="{escape(colour)}" stroke-width="2" points="{points}"/>'
        )
        last = scores[-1] if scores else 0
        parts.append(
            f'<text x="{PAD + 4}" y="{12 + 11 * n}" font-size="10" fill="{escape(colour)}">'
            f"{escape(name)} {last}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
