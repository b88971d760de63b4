"""The simulator: keeps the last frame and draws the board with its LEDs as a PNG.

The page shows :meth:`SimOutput.latest_png`; ``crib leds render --png FILE`` saves one. LED values
are gamma corrected for LEDs, so the picture undoes the gamma to look on a screen as the LEDs
look on the board.

>>> from firmware.layout import BoardLayout
>>> from firmware.render import render_frame
>>> board = BoardLayout.standard()
>>> sim = SimOutput(board)
>>> sim.latest_png() is None
True
>>> sim.show(render_frame(board, {"A": (45, 40)}))
>>> sim.latest_png()[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

import io
import threading
from pathlib import Path

from firmware.layout import SEATS, BoardLayout
from firmware.outputs import LedOutput
from firmware.render import Frame

__all__ = ["SimOutput", "draw_board"]


def draw_board(layout: BoardLayout, frame: Frame | None, scale: float = 4.0,
               gamma: float = 2.2) -> bytes:
    """A PNG of ``layout`` with ``frame``'s LEDs (all dark when None), ``scale`` px per mm."""
    from PIL import Image, ImageDraw

    w, h = round(layout.width * scale), round(layout.height * scale)
    img = Image.new("RGB", (w, h), (24, 24, 28))
    d = ImageDraw.Draw(img)
    r = layout.geometry.corner_radius * scale
    d.rounded_rectangle((1, 1, w - 2, h - 2), radius=r, fill=(70, 48, 30), outline=(40, 28, 18),
                        width=2)
    for street in layout.streets:  # a faint line before each street
        if street.number > 1:
            first = layout.hole(street.track, street.first)
            before = layout.hole(street.track, street.first - 1)
            if first.row == before.row:
                x = (first.x + before.x) / 2 * scale
                y = first.y * scale
                d.line((x, y - 4 * scale, x, y + 4 * scale), fill=(95, 68, 45), width=1)
    for line in layout.skunk_lines:
        for x1, y1, x2, y2 in line.segments:
            d.line((x1 * scale, y1 * scale, x2 * scale, y2 * scale), fill=(190, 40, 30), width=2)
    inv = 1.0 / gamma
    hole_r = layout.geometry.hole_diameter / 2 * scale
    for hole in layout.holes:
        cx, cy = hole.x * scale, hole.y * scale
        rgb = frame.rgb(hole.led) if frame is not None else (0, 0, 0)
        if any(rgb):
            shown = tuple(round(255 * (c / 255) ** inv) for c in rgb)
            glow = hole_r * 2.0
            d.ellipse((cx - glow, cy - glow, cx + glow, cy + glow),
                      fill=tuple(c // 3 + 20 for c in shown))
            d.ellipse((cx - hole_r, cy - hole_r, cx + hole_r, cy + hole_r), fill=shown)
        else:
            d.ellipse((cx - hole_r, cy - hole_r, cx + hole_r, cy + hole_r), fill=(30, 22, 16))
    for track in range(layout.tracks):
        start = layout.hole(track, 0)
        d.text((start.x * scale - 3 * scale, start.y * scale - 2 * scale), SEATS[track],
               fill=(230, 220, 200), anchor="rm")
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


class SimOutput(LedOutput):
    """Keeps the last frame (thread-safe) and its PNG; optionally writes each PNG to a file."""

    name = "sim"

    def __init__(self, layout: BoardLayout, png_path: str | Path | None = None,
                 scale: float = 4.0) -> None:
        super().__init__(layout.led_count)
        self.layout = layout
        self.png_path = Path(png_path) if png_path else None
        self.scale = scale
        self.frames_shown = 0
        self._frame: Frame | None = None
        self._png: bytes | None = None
        self._lock = threading.Lock()

    def show(self, frame: Frame) -> None:
        self._check(frame)
        with self._lock:
            self._frame = frame.copy()
            self._png = None
            self.frames_shown += 1
        if self.png_path is not None:
            self.save_png(self.png_path)

    @property
    def latest_frame(self) -> Frame | None:
        with self._lock:
            return self._frame

    def latest_png(self) -> bytes | None:
        """The last frame drawn as PNG (cached), or None before the first frame."""
        with self._lock:
            frame, png = self._frame, self._png
        if frame is None:
            return None
        if png is None:
            png = draw_board(self.layout, frame, self.scale)
            with self._lock:
                if self._frame is frame:
                    self._png = png
        return png

    def save_png(self, path: str | Path) -> Path:
        """Write the last frame (or the dark board) as PNG to ``path``."""
        png = self.latest_png() or draw_board(self.layout, None, self.scale)
        target = Path(path)
        target.write_bytes(png)
        return target
