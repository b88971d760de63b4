"""Deal videos: a camera over a card table watches a scripted deal, with exact ground truth.

``render_video(actions, path)`` acts out a script (see :mod:`vision.synth.deals`) following the
table protocol of docs/vision-synth.md: seat A at the bottom of the frame, seat B at the top
(its cards upside down to the camera); with three players B top left and C top right; with
four B at the left edge, C at the top and D at the right edge (:data:`LAYOUTS`, the default
zones of :mod:`vision.track.zones`); the pack and crib in the centre, each card laid by a
hand reaching from its seat into a row in front of that seat. It writes an MP4 (``mp4v``, or
H.264 through ffmpeg), an AVI (``MJPG``) or a folder of JPEG frames, and ``<path>.truth.json``:
for each action its first frame, the frame from which its cards lie still with no hand over
them, and its last frame. Real-camera effects (:mod:`vision.synth.effects`) are options.

The still table is composited once each time it changes; each frame only draws the hands (with
the cards they carry, a shadow and motion blur), sensor noise and JPEG compression.

>>> import tempfile, os
>>> from vision.synth.decks import procedural_deck
>>> acts = [{"do": "deal", "dealer": "A"}, {"do": "play", "seat": "B", "card": "5S"}]
>>> with tempfile.TemporaryDirectory() as d:
...     t = render_video(acts, os.path.join(d, "v.avi"), deck=procedural_deck(7), size=(320, 180))
...     os.path.exists(os.path.join(d, "v.avi.truth.json")), t.actions[1]["do"], t.frames > 20
(True, 'play', True)
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.decks import Deck, load_decks, printed_back, procedural_deck
from vision.synth.effects import Camera, Effects, H264Writer, ffmpeg_path
from vision.synth.hands import SKIN_TONES, SLEEVES, HandLayer, HandPose, HandSprite, hand_sprite
from vision.synth.scene import _Canvas, _rect
from vision.synth.tables import table as table_surface

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
Action = dict[str, Any]

# the table protocol, as fractions of the frame
CENTRE_ZONE = (0.30, 0.35, 0.70, 0.65)  # x0, y0, x1, y1
ROW_Y = {"A": 0.80, "B": 0.20}
PACK_AT = (0.40, 0.50)
PACK_AT_WIDE_CRIB = (0.35, 0.50)  # with the crib spread a third overlapped: room for it
WIDE_CRIB_X = 0.59  # ... spread about this x, clear of the pack and inside the centre zone
CRIB_AT = (0.585, 0.50)
HOLD = 0.30  # fingertips this far (in card heights) behind a carried card's centre


@dataclass(frozen=True)
class SeatLayout:
    """Where one seat sits and lays its row (fractions of the frame unless said).

    ``angle``: degrees its cards are turned (0: upright to the camera; each seat's cards face
    it); ``along``: the row's direction on screen (each card to the right of the one before as
    the seat sees it, so the one before shows its top-left index); ``anchor``: the first card
    lies ``back`` card widths before it along the row (``jitter`` card widths either way);
    ``step``: each next card this many card widths on (so it covers two thirds of the one
    before at 0.33); ``shoulder``: where the arm of the seat's right hand comes from (off the
    frame); ``zone``: the seat's zone of :mod:`vision.track.zones` (the default zones)."""

    seat: str
    angle: float
    along: tuple[float, float]
    anchor: tuple[float, float]
    back: float
    jitter: float
    step: tuple[float, float]
    shoulder: tuple[float, float]
    zone: tuple[float, float, float, float]


def _seat(seat: str, angle: float, along: tuple[float, float], anchor: tuple[float, float],
          shoulder: tuple[float, float], zone: tuple[float, float, float, float], wide: bool) -> SeatLayout:
    if wide:  # the two-player rows, as they have always been
        return SeatLayout(seat, angle, along, anchor, 1.05, 0.3, (0.30, 0.40), shoulder, zone)
    return SeatLayout(seat, angle, along, anchor, 0.5, 0.12, (0.30, 0.36), shoulder, zone)


LAYOUTS: dict[int, dict[str, SeatLayout]] = {
    2: {
        "A": _seat("A", 0.0, (1.0, 0.0), (0.5, 0.80), (0.72, 1.35), (0.0, 0.5, 1.0, 1.0), True),
        "B": _seat("B", 180.0, (-1.0, 0.0), (0.5, 0.20), (0.28, -0.35), (0.0, 0.0, 1.0, 0.5), True),
    },
    3: {
        "A": _seat("A", 0.0, (1.0, 0.0), (0.5, 0.80), (0.72, 1.35), (0.0, 0.5, 1.0, 1.0), False),
        "B": _seat("B", 180.0, (-1.0, 0.0), (0.22, 0.18), (0.08, -0.35), (0.0, 0.0, 0.5, 0.5), False),
        "C": _seat("C", 180.0, (-1.0, 0.0), (0.78, 0.18), (0.58, -0.35), (0.5, 0.0, 1.0, 0.5), False),
    },
    4: {
        "A": _seat("A", 0.0, (1.0, 0.0), (0.5, 0.82), (0.72, 1.35), (0.0, 0.65, 1.0, 1.0), False),
        "B": _seat("B", 90.0, (0.0, 1.0), (0.13, 0.42), (-0.20, 0.78), (0.0, 0.0, 0.3, 1.0), False),
        "C": _seat("C", 180.0, (-1.0, 0.0), (0.5, 0.18), (0.28, -0.35), (0.0, 0.0, 1.0, 0.35), False),
        "D": _seat("D", -90.0, (0.0, -1.0), (0.87, 0.50), (1.20, 0.22), (0.7, 0.0, 1.0, 1.0), False),
    },
}
"""The seats of a table of 2, 3 or 4 players, laid out as the default zones of
:mod:`vision.track.zones`: A at the bottom and B at the top; with three, B top left and C top
right; with four (partners A+C v B+D), B at the left edge (its cards turned 90°), C at the top,
D at the right edge (-90°). Each row lies in its seat's zone, its cards' centres where
``Zones.zone_of`` names the seat, outside the centre zone."""


def players_of(actions: Sequence[Action]) -> int:
    """The table's size a script needs: the highest seat letter it names (at least 2).

    >>> players_of([{"do": "deal", "dealer": "A"}, {"do": "play", "seat": "c", "card": "5S"}])
    3
    """
    top = 1
    for a in actions:
        for key in ("seat", "dealer"):
            if key in a:
                top = max(top, ord(str(a[key]).upper()) - 64)
    return max(2, top)


# ----------------------------------------------------------------------------- truth
@dataclass
class Truth:
    """The ground truth of a rendered video (also written as ``<path>.truth.json``)."""

    fps: float
    size: tuple[int, int]
    deck: str
    reset: str
    frames: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    path: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The truth JSON (see docs/vision-synth.md, *Deal videos*): ``fps``, ``size``, ``deck``,
        ``reset``, ``frames``, ``actions``, then the ``extra`` keys (``players``, ``zones``,
        ``table``, ``codec``, the camera's effects, the game's events ...)."""
        return {
            "fps": self.fps,
            "size": list(self.size),
            "deck": self.deck,
            "reset": self.reset,
            "frames": self.frames,
            "actions": self.actions,
            **self.extra,
        }


# ----------------------------------------------------------------------------- plan
@dataclass
class Piece:
    """A card (or the pack) lying on the table: ``img`` names its picture when face up
    (``face:5S``) ; face down it shows the back (the pack always does)."""

    key: str
    card: str | None
    owner: str  # "A", "B", "pack", "crib", "starter"
    x: float
    y: float
    angle: float  # degrees
    up: bool = True
    series: int = 0

    @property
    def img(self) -> str:
        if self.owner == "pack":
            return "pack"
        return f"face:{self.card}" if self.up else "back"


@dataclass
class Carry:
    """A picture carried under the fingers: ``img`` key, its centre, angle (deg) and x-scale."""

    img: str
    centre: tuple[float, float]
    angle: float
    sx: float = 1.0


@dataclass
class Pose:
    """One hand in one frame (planned)."""

    seat: str
    grip: tuple[float, float]
    angle: float
    velocity: tuple[float, float]
    carry: Carry | None = None


@dataclass
class FrameSpec:
    """What happens in one frame: table changes first, then the hands drawn over it."""

    poses: list[Pose] = field(default_factory=list)
    changes: list[tuple[str, Any]] = field(
        default_factory=list
    )  # ("add", Piece) | ("up"/"down"/"remove", key)


@dataclass
class Stop:
    """A point the hand's fingertips travel to (``travel`` s), then stay (``hold`` s).
    ``arrive``/``leave``: table changes at arrival / departure; ``carry(grip, direction, t)``:
    what it holds on the way (t: 0..1 of the travel) and, with ``hold_carry``, while it stays."""

    at: tuple[float, float]
    travel: float
    hold: float = 0.0
    arrive: list[tuple[str, Any]] = field(default_factory=list)
    leave: list[tuple[str, Any]] = field(default_factory=list)
    carry: Callable[[tuple[float, float], tuple[float, float], float], Carry | None] | None = None
    hold_carry: Callable[[tuple[float, float], tuple[float, float], float], Carry | None] | None = None


def _smooth(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


class _Planner:
    """Turns actions into frame specs, keeping the table as it will be (geometry only)."""

    def __init__(
        self,
        size: tuple[int, int],
        fps: float,
        cw: float,
        aspect: float,
        reset: str | None,
        rng: np.random.Generator,
        players: int = 2,
        crib_overlap: float | None = None,
        pace: float = 1.0,
    ) -> None:
        self.w, self.h = size
        self.fps = fps
        self.cw = cw
        self.ch = cw * aspect
        self.reset = reset
        self.rng = rng
        self.layout = LAYOUTS[players]
        self.seats = list(self.layout)
        self.crib_overlap = crib_overlap
        self.pace = pace
        self.pieces: dict[str, Piece] = {}
        self.rows: dict[str, list[str]] = {s: [] for s in self.seats}
        self.series = 0
        self.dealer = "A"
        self.n = 0
        self.crib_offsets: list[tuple[float, float, float]] = []

    # -- geometry
    def seat_of(self, seat: str) -> SeatLayout:
        if seat not in self.layout:
            raise ValueError(f"no seat {seat} at a table of {len(self.layout)} (use players=...)")
        return self.layout[seat]

    def shoulder(self, seat: str) -> tuple[float, float]:
        fx, fy = self.seat_of(seat).shoulder
        return (fx * self.w, fy * self.h)

    def direction(self, seat: str, p: tuple[float, float]) -> tuple[float, float]:
        sx, sy = self.shoulder(seat)
        d = np.array([p[0] - sx, p[1] - sy], float)
        d /= max(1e-6, float(np.linalg.norm(d)))
        return float(d[0]), float(d[1])

    def outside(self, seat: str, p: tuple[float, float]) -> tuple[float, float]:
        """The point back along the arm from ``p`` where the hand and what it carries are out of view."""
        dx, dy = self.direction(seat, p)
        ts = []
        for v, d, lim in ((p[0], -dx, self.w), (p[1], -dy, self.h)):
            if d > 1e-6:
                ts.append((lim - v) / d)
            elif d < -1e-6:
                ts.append(-v / d)
        t = min(ts) if ts else 0.0
        t += 0.85 * self.ch + 0.3 * self.cw
        return p[0] - dx * t, p[1] - dy * t

    def key(self, stem: str) -> str:
        self.n += 1
        return f"{stem}-{self.n}"

    def frames(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))

    def u(self, a: float, b: float) -> float:
        return float(self.rng.uniform(a, b))

    # -- tracks
    def track(self, seat: str, stops: list[Stop], exit_time: float | None = None) -> list[FrameSpec]:
        """A hand entering from ``seat``'s edge, visiting ``stops``, and leaving."""
        out: list[FrameSpec] = []
        pos = self.outside(seat, stops[0].at)
        prev = pos

        def emit(grip: tuple[float, float], carry: Carry | None, changes: list[tuple[str, Any]]) -> None:
            nonlocal prev
            d = self.direction(seat, grip)
            vel = (grip[0] - prev[0], grip[1] - prev[1])
            out.append(
                FrameSpec([Pose(seat, grip, float(np.arctan2(d[1], d[0])), vel, carry)], list(changes))
            )
            prev = grip

        for stop in stops:
            n = self.frames(stop.travel)
            start = pos
            for i in range(1, n + 1):
                t = _smooth(i / n)
                g = (start[0] + (stop.at[0] - start[0]) * t, start[1] + (stop.at[1] - start[1]) * t)
                c = stop.carry(g, self.direction(seat, g), i / n) if stop.carry and i < n else None
                if stop.carry and i == n and not stop.arrive:
                    c = stop.carry(g, self.direction(seat, g), 1.0)
                emit(g, c, stop.arrive if i == n else [])
            pos = stop.at
            nh = self.frames(stop.hold) if stop.hold > 0 else 0
            for i in range(nh):
                c = stop.hold_carry(pos, self.direction(seat, pos), (i + 1) / nh) if stop.hold_carry else None
                emit(pos, c, [])
            if stop.leave and out:
                out[-1].changes.extend(stop.leave)
        end = self.outside(seat, pos)
        n = self.frames(exit_time if exit_time is not None else self.u(0.5, 0.7))
        start = pos
        for i in range(1, n + 1):
            t = _smooth(i / n)
            emit((start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t), None, [])
        return out

    def idle(self, seconds: float) -> list[FrameSpec]:
        return [FrameSpec() for _ in range(self.frames(seconds * self.pace))]

    def delays(self, n: int, lo: float, hi: float) -> list[int]:
        """Frames each of ``n`` hands waits after the first (two hands: one draw, as ever)."""
        return [0] + [self.frames(self.u(lo, hi) * i) for i in range(1, max(2, n))]

    @staticmethod
    def together(*tracks: list[FrameSpec], delays: Sequence[int] = ()) -> list[FrameSpec]:
        """Tracks played at the same time (each delayed by ``delays[i]`` frames)."""
        delays = list(delays) + [0] * (len(tracks) - len(delays))
        n = max((len(t) + d for t, d in zip(tracks, delays, strict=True)), default=0)
        out = [FrameSpec() for _ in range(n)]
        for t, d in zip(tracks, delays, strict=True):
            for i, f in enumerate(t):
                out[i + d].poses.extend(f.poses)
                out[i + d].changes.extend(f.changes)
        return out

    def carrying(self, img: str, angle: float, along: float) -> Callable[..., Carry]:
        """A carried picture whose centre lies ``along`` px ahead of the fingertips."""

        def f(g: tuple[float, float], d: tuple[float, float], t: float) -> Carry:
            return Carry(img, (g[0] + d[0] * along, g[1] + d[1] * along), angle)

        return f

    def grip_for(self, seat: str, centre: tuple[float, float], along: float) -> tuple[float, float]:
        """Where the fingertips go so that a picture ``along`` px ahead of them lands at ``centre``."""
        d = self.direction(seat, centre)
        return centre[0] - d[0] * along, centre[1] - d[1] * along

    def over(self, seat: str, p: Piece, reach: float = 0.12) -> tuple[float, float]:
        """Fingertips a little beyond a card's centre: the hand covers it."""
        d = self.direction(seat, (p.x, p.y))
        return p.x + d[0] * reach * self.ch, p.y + d[1] * reach * self.ch

    def sweep(
        self,
        seat: str,
        keys: list[str],
        change: Callable[[str], list[tuple[str, Any]]],
        first: float | None = None,
        each: float = 0.3,
    ) -> list[FrameSpec]:
        stops = []
        for i, k in enumerate(keys):
            stops.append(
                Stop(
                    self.over(seat, self.pieces[k]),
                    (first or self.u(0.6, 0.9)) if i == 0 else each,
                    hold=0.12,
                    arrive=change(k),
                )
            )
        return self.track(seat, stops)

    # -- actions
    def act(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        """Frames of one action and the keys of the pieces it lays or changes."""
        do = a["do"]
        fn = getattr(self, "_" + do.replace("-", "_"), None)
        if fn is None:
            raise ValueError(f"unknown action {do!r}")
        return fn(a)

    def _deal(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        self.dealer = str(a.get("dealer", "A")).upper()
        self.seat_of(self.dealer)
        self.rows = {s: [] for s in self.seats}
        self.series = 0
        pack_at = PACK_AT if self.crib_overlap is None else PACK_AT_WIDE_CRIB
        px, py = (
            pack_at[0] * self.w + self.u(-0.01, 0.01) * self.w,
            pack_at[1] * self.h + self.u(-0.02, 0.02) * self.h,
        )
        pack = Piece(self.key("pack"), None, "pack", px, py, self.u(-8, 8), up=False)
        cx, cy = CRIB_AT[0] * self.w + self.u(-0.01, 0.01) * self.w, CRIB_AT[1] * self.h
        crib = [
            Piece(self.key("crib"), None, "crib", cx + dx * self.cw, cy + dy * self.ch, ang, up=False)
            for dx, dy, ang in self.crib_offsets
        ]
        along = HOLD * self.ch
        t1 = self.track(
            self.dealer,
            [
                Stop(
                    self.grip_for(self.dealer, (px, py), along),
                    self.u(0.7, 1.0),
                    0.2,
                    arrive=[("add", replace(pack))],
                    carry=self.carrying("pack", pack.angle, along),
                )
            ],
        )
        t2 = self.track(
            self.dealer,
            [
                Stop(
                    self.grip_for(self.dealer, (cx, cy), along),
                    self.u(0.7, 1.0),
                    0.2,
                    arrive=[("add", replace(p)) for p in crib],
                    carry=self.carrying("pile", 0, along),
                )
            ],
        )
        for p in [pack, *crib]:
            self.pieces[p.key] = p
        return t1 + t2 + self.idle(self.u(0.5, 0.8)), [pack.key] + [p.key for p in crib]

    def _pack(self) -> Piece | None:
        return next((p for p in self.pieces.values() if p.owner == "pack"), None)

    def _starter(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        pack = self._pack()
        px, py = (pack.x, pack.y) if pack else (PACK_AT[0] * self.w, PACK_AT[1] * self.h)
        turn = self.seat_of(self.dealer).angle
        s = Piece(
            self.key("starter"),
            str(a["card"]),
            "starter",
            px + self.u(-0.06, 0.06) * self.cw,
            py + self.u(-0.05, 0.05) * self.ch,
            turn + self.u(-8, 8),
        )
        along = HOLD * self.ch
        grip = self.grip_for(self.dealer, (s.x, s.y), along)
        img = f"face:{s.card}"

        def flip(g: tuple[float, float], d: tuple[float, float], t: float) -> Carry:
            c = (g[0] + d[0] * along, g[1] + d[1] * along - 0.1 * self.ch * np.sin(np.pi * t))
            sx = abs(np.cos(np.pi * t))
            return Carry(
                "back" if t < 0.5 else img, c, (pack.angle if pack and t < 0.5 else s.angle), float(sx)
            )

        stops = [
            Stop(grip, self.u(0.7, 1.0), 0.15),
            Stop(grip, 0.05, 0.6, leave=[("add", replace(s))], hold_carry=flip),
        ]
        self.pieces[s.key] = s
        return self.track(self.dealer, stops) + self.idle(self.u(0.5, 0.9)), [s.key]

    def _slot(self, seat: str) -> tuple[float, float, float]:
        lay = self.seat_of(seat)
        row = self.rows[seat]
        dx, dy = lay.along
        ax, ay = abs(dx), abs(dy)  # jitter along the row, on the screen's axes
        cx, cy = ay, ax  # across the row
        if row:
            last = self.pieces[row[-1]]
            step = self.u(*lay.step)
            j = self.u(-0.03, 0.03)
            x = last.x + dx * step * self.cw + cx * j * self.ch
            y = last.y + dy * step * self.cw + cy * j * self.ch
        else:
            x0, y0 = lay.anchor[0] * self.w, lay.anchor[1] * self.h
            j = self.u(-lay.jitter, lay.jitter)
            k = self.u(-0.02, 0.02)
            x = x0 - dx * lay.back * self.cw + ax * j * self.cw + cx * k * self.h
            y = y0 - dy * lay.back * self.cw + ay * j * self.cw + cy * k * self.h
        return x, y, lay.angle + self.u(-6, 6)

    def _play(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        seat = str(a["seat"]).upper()
        x, y, ang = self._slot(seat)
        p = Piece(self.key(seat), str(a["card"]), seat, x, y, ang, series=self.series)
        along = HOLD * self.ch
        stop = Stop(
            self.grip_for(seat, (x, y), along),
            self.u(0.6, 1.1),
            self.u(0.2, 0.35),
            arrive=[("add", replace(p))],
            carry=self.carrying(f"face:{p.card}", ang, along),
        )
        self.pieces[p.key] = p
        self.rows[seat].append(p.key)
        return self.track(seat, [stop]) + self.idle(self.u(0.5, 1.0)), [p.key]

    def _reset(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        mode = self.reset or str(a.get("mode", "keep"))
        done = [k for s in self.seats for k in self.rows[s] if self.pieces[k].series == self.series]
        self.series += 1
        if mode != "turn-down" or not done:
            return self.idle(0.3), []
        tracks = []
        for seat in self.seats:
            keys = [k for k in self.rows[seat] if k in done and self.pieces[k].up]
            if keys:
                tracks.append(self.sweep(seat, keys, lambda k: [("down", k)]))
        for k in done:
            self.pieces[k].up = False
        frames = self.together(*tracks, delays=self.delays(len(tracks), 0.1, 0.4)[: len(tracks)])
        return frames + self.idle(self.u(0.4, 0.7)), done

    def _show(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        seat = str(a["seat"]).upper()
        laid = {self.pieces[k].card for k in self.rows[seat]}
        # cards of the hand never played (the five-card game's play stops at the first go) are
        # laid face up at the end of the seat's row for the show, one by one
        kept: list[FrameSpec] = []
        for card in [str(c) for c in a.get("cards", []) if str(c) not in laid]:
            frames, _ = self._play({"seat": seat, "card": card})
            kept += frames
        keys = list(self.rows[seat])
        if not keys:
            return self.idle(0.5), []
        down = [k for k in keys if not self.pieces[k].up]
        if kept and not down:
            return kept, keys
        if down:
            frames = self.sweep(seat, down, lambda k: [("up", k)], each=0.35)
            for k in down:
                self.pieces[k].up = True
        else:  # already face up: a hand points at them briefly
            mid = self.pieces[keys[len(keys) // 2]]
            d = self.direction(seat, (mid.x, mid.y))
            at = (mid.x - d[0] * 0.75 * self.ch, mid.y - d[1] * 0.75 * self.ch)
            frames = self.track(seat, [Stop(at, self.u(0.5, 0.7), 0.4)])
        return kept + frames + self.idle(self.u(0.6, 1.0)), keys

    def _crib(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        cards = [str(c) for c in a.get("cards", [])]
        seat = self.dealer
        pile = [p for p in self.pieces.values() if p.owner == "crib"]
        cx = float(np.mean([p.x for p in pile])) if pile else CRIB_AT[0] * self.w
        cy = float(np.mean([p.y for p in pile])) if pile else CRIB_AT[1] * self.h
        lay = self.seat_of(seat)
        dx, dy = lay.along
        ax, ay = abs(dx), abs(dy)
        turn = lay.angle
        if self.crib_overlap is None:
            step = self.u(0.34, 0.42) * self.cw
        else:  # each card covers ``crib_overlap`` of the one before
            step = (1 - self.crib_overlap + self.u(-0.03, 0.03)) * self.cw
        if dy and len(cards) > 1:  # spread down the frame's height: it must fit the centre zone
            step = min(step, 0.24 * self.h / (len(cards) - 1))
        elif self.crib_overlap is not None:
            cx = WIDE_CRIB_X * self.w
        x0 = cx - dx * step * (len(cards) - 1) / 2
        y0 = cy - dy * step * (len(cards) - 1) / 2
        spread = []
        for i, c in enumerate(cards):
            j = self.u(-0.03, 0.03)
            k = self.u(-0.05, 0.05)
            spread.append(
                Piece(
                    self.key("crib"),
                    c,
                    "crib",
                    x0 + dx * i * step + ax * j * self.cw + ay * k * self.ch,
                    y0 + dy * i * step + ay * j * self.cw + ax * k * self.ch,
                    turn + self.u(-6, 6),
                )
            )
        along = HOLD * self.ch
        stops = []
        if pile:
            stops.append(
                Stop(
                    self.grip_for(seat, (cx, cy), along),
                    self.u(0.7, 1.0),
                    0.25,
                    arrive=[("remove", p.key) for p in pile],
                )
            )
        for i, p in enumerate(spread):
            stops.append(
                Stop(
                    self.over(seat, p, 0.1),
                    0.3 if (i or pile) else 0.8,
                    0.12,
                    arrive=[("add", replace(p))],
                    carry=self.carrying("pile", 0, along) if i == 0 and pile else None,
                )
            )
        for p in pile:
            del self.pieces[p.key]
        for p in spread:
            self.pieces[p.key] = p
        if not stops:
            return self.idle(0.5), []
        return self.track(seat, stops) + self.idle(self.u(0.8, 1.2)), [p.key for p in spread]

    def _clear(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        tracks = []
        for seat in self.seats:
            keys = [k for k in self.rows[seat] if k in self.pieces]
            if keys:
                tracks.append(self.sweep(seat, keys[::-1], lambda k: [("remove", k)], first=0.7, each=0.2))
        centre = [p for p in self.pieces.values() if p.owner in ("crib", "starter", "pack")]
        frames = self.together(*tracks, delays=[2 * i for i in range(len(tracks))]) if tracks else []
        if centre:
            stops = []
            groups = [[p for p in centre if p.owner == "crib"], [p for p in centre if p.owner != "crib"]]
            for g in groups:
                if g:
                    gx, gy = float(np.mean([p.x for p in g])), float(np.mean([p.y for p in g]))
                    stops.append(
                        Stop(
                            self.grip_for(self.dealer, (gx, gy), -0.1 * self.ch),
                            0.8 if not stops else 0.4,
                            0.15,
                            arrive=[("remove", p.key) for p in g],
                        )
                    )
            frames += self.track(self.dealer, stops)
        self.pieces.clear()
        self.rows = {s: [] for s in self.seats}
        return frames + self.idle(0.5), []

    def _hover(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        seat = str(a["seat"]).upper()
        secs = float(a.get("seconds", 2.0))
        keys = list(self.rows[seat])
        if keys:
            pts = [self.over(seat, self.pieces[k]) for k in keys]
        else:
            ax, ay = self.seat_of(seat).anchor
            pts = [(self.w * ax, self.h * ay)]
        path = [pts[0], pts[-1], pts[len(pts) // 2]]
        stops = [Stop(path[0], 0.7, 0.1)] + [Stop(p, max(0.2, (secs - 0.8) / 2), 0.0) for p in path[1:]]
        return self.track(seat, stops) + self.idle(0.5), keys

    def _pause(self, a: Action) -> tuple[list[FrameSpec], list[str]]:
        return self.idle(float(a.get("seconds", 1.0))), []


# ----------------------------------------------------------------------------- rendering
def _default_deck() -> Deck:
    try:
        held = load_decks(split="val")
    except Exception:
        held = []
    return held[0] if held else procedural_deck(7)


def deck_by_name(name: str) -> Deck:
    """A deck by name: ``procedural-N`` (an OpenCV-drawn style) or a catalogue name (``ar-orell``)."""
    if name.startswith("procedural-"):
        return procedural_deck(int(name.split("-")[1]))
    for d in load_decks():
        if d.name == name:
            return d
    raise ValueError(f"no deck named {name!r} on this machine")


def _group(back: U8, offsets: list[tuple[float, float, float]]) -> U8:
    """A messy pile of backs (offsets in card widths/heights, degrees), BGRA."""
    bh, bw = back.shape[:2]
    side = int(np.hypot(bw, bh) * 1.5)
    acc = np.zeros((side, side, 3), np.float32)
    alpha = np.zeros((side, side), np.float32)
    for dx, dy, ang in offsets:
        q = _rect(side / 2 + dx * bw, side / 2 + dy * bh, bw, bh, np.radians(ang))
        m = cv2.getPerspectiveTransform(np.float32([[0, 0], [bw, 0], [bw, bh], [0, bh]]), q)
        wp = cv2.warpPerspective(back, m, (side, side), flags=cv2.INTER_LINEAR)
        a = wp[..., 3].astype(np.float32) / 255
        acc = acc * (1 - a[..., None]) + wp[..., :3] * a[..., None]
        alpha = alpha + a * (1 - alpha)
    # crop around the drawn cards, keeping the centre where it is
    ys, xs = np.nonzero(alpha > 0.01)
    r = int(max(abs(xs - side / 2).max(), abs(ys - side / 2).max())) + 2
    c = side // 2
    acc, alpha = acc[c - r : c + r, c - r : c + r], alpha[c - r : c + r, c - r : c + r]
    a = np.maximum(alpha, 1e-6)[..., None]
    out = np.dstack([np.clip(acc / a * (alpha[..., None] > 0), 0, 255), alpha * 255])
    return out.astype(np.uint8)


def _pack_sprite(back: U8, rng: np.random.Generator) -> U8:
    """The pack face down: a back over the stacked edges of the cards beneath."""
    bh, bw = back.shape[:2]
    e = max(2, round(bw * 0.045))
    out = np.zeros((bh + e, bw + e, 4), np.uint8)
    edge = np.dstack([np.full((bh, bw, 3), 0, np.uint8), back[..., 3]])
    for k in range(e, 0, -1):
        tone = int(205 + 35 * ((k % 2) * 0.5 + rng.uniform(0, 0.5)))
        edge[..., :3] = tone
        sub = out[k : k + bh, k : k + bw]
        a = edge[..., 3:4].astype(np.float32) / 255
        sub[..., :3] = (sub[..., :3] * (1 - a) + edge[..., :3] * a).astype(np.uint8)
        sub[..., 3] = np.maximum(sub[..., 3], edge[..., 3])
    sub = out[:bh, :bw]
    a = back[..., 3:4].astype(np.float32) / 255
    sub[..., :3] = (sub[..., :3] * (1 - a) + back[..., :3] * a).astype(np.uint8)
    sub[..., 3] = np.maximum(sub[..., 3], back[..., 3])
    return out


class _Renderer:
    """Holds a video's fixed look (table, light, noise, hands) and draws frames."""

    def __init__(
        self,
        size: tuple[int, int],
        deck: Deck,
        cw: float,
        table: str,
        rng: np.random.Generator,
        blur: bool,
        seats: Sequence[str] = "AB",
        camera: Camera | None = None,
    ) -> None:
        self.w, self.h = size
        self.deck = deck
        self.cw = cw
        self.rng = rng
        self.face_w = max(24, int(cw * 1.3))
        kind = {"wood": str(rng.choice(["wood_light", "wood_light", "wood_dark"]))}.get(table, table)
        surface, self.table_kind = table_surface(rng, (self.w, self.h), kind)
        self.surface = surface
        # fixed light: a gradient, vignetting and a colour cast
        yy, xx = np.mgrid[0 : self.h, 0 : self.w].astype(np.float32)
        gx = (xx / self.w - 0.5) * rng.uniform(-0.25, 0.25)
        gy = (yy / self.h - 0.5) * rng.uniform(-0.25, 0.25)
        vig = 1 - 0.18 * (((xx / self.w - 0.5) ** 2 + (yy / self.h - 0.5) ** 2) / 0.5)
        cast = rng.uniform(0.9, 1.08, 3).astype(np.float32)
        self.light = ((1 + gx + gy) * vig * rng.uniform(0.9, 1.1))[..., None] * cast[None, None, :]
        self.light = self.light.astype(np.float32)
        self.camera = camera
        if camera is not None:
            self.light = camera.light(self.light)
        self.defocus = float(rng.uniform(0.4, 0.8))
        self.quality = int(rng.uniform(78, 90))
        sigma = float(rng.uniform(1.5, 3.0))
        pad = 16
        self.noise = []
        for _ in range(4):
            n = rng.standard_normal((self.h + pad, self.w, 3), dtype=np.float32) * sigma
            self.noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
        self.pad = pad
        back = deck.back(self.face_w)
        if back is None:
            back = cv2.resize(
                printed_back(rng, 2 * self.face_w),
                (self.face_w, round(self.face_w * 1.397)),
                interpolation=cv2.INTER_AREA,
            )
        face0 = deck.render("AS", self.face_w)
        if back.shape[:2] != face0.shape[:2]:
            back = cv2.resize(back, (face0.shape[1], face0.shape[0]), interpolation=cv2.INTER_AREA)
        self.images: dict[str, U8] = {"back": back, "pack": _pack_sprite(back, rng)}
        self.aspect = face0.shape[0] / face0.shape[1]
        self.crib_offsets = [
            (float(rng.uniform(-0.05, 0.05)), float(rng.uniform(-0.04, 0.04)), float(rng.uniform(-12, 12)))
            for _ in range(4)
        ]
        self.images["pile"] = _group(back, self.crib_offsets)
        tones = rng.choice(len(SKIN_TONES), len(seats), replace=False)
        sleeves = rng.choice(len(SLEEVES), len(seats), replace=False)
        length = 0.8 * float(np.hypot(self.w, self.h)) + 2 * cw
        self.sprites: dict[str, HandSprite] = {
            s: hand_sprite(
                cw, int(tones[i]), SLEEVES[int(sleeves[i])], length, seed=int(rng.integers(1 << 30))
            )
            for i, s in enumerate(seats)
        }
        self.layer = HandLayer(
            (self.w, self.h),
            self.light,
            exposure=0.5,
            shadow_offset=(0.09 * cw, 0.13 * cw),
            shadow_blur=max(2.0, 0.08 * cw),
            blur=blur,
        )
        self.pieces: dict[str, Piece] = {}
        self.static: U8 | None = None

    def image(self, key: str) -> U8:
        if key not in self.images:
            self.images[key] = self.deck.render(key.split(":")[1], self.face_w)
        return self.images[key]

    def quad(self, p: Piece) -> F32:
        img = self.image(p.img)
        scale = self.cw / self.face_w
        return _rect(p.x, p.y, img.shape[1] * scale, img.shape[0] * scale, np.radians(p.angle))

    def apply(self, change: tuple[str, Any]) -> None:
        what, arg = change
        if what == "add":
            self.pieces[arg.key] = Piece(**arg.__dict__)
        elif what == "remove":
            self.pieces.pop(arg, None)
        elif what in ("up", "down"):
            self.pieces[arg].up = what == "up"
        self.static = None

    def still_table(self) -> U8:
        if self.static is None:
            canvas = _Canvas(self.surface.copy())
            canvas.light_dir = np.array([0.6, 0.9], np.float32)
            for p in self.pieces.values():
                canvas.paste(self.image(p.img), self.quad(p), owner=-1, shadow=0.3)
            img = canvas.img * self.light
            img = cv2.GaussianBlur(img, (0, 0), self.defocus)
            self.static = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
        return self.static

    def hand(self, frame: U8, pose: Pose) -> tuple[int, int, int, int, U8] | None:
        carry = None
        if pose.carry is not None:
            c = pose.carry
            carry = (
                self.image(c.img),
                c.centre,
                c.angle,
                self.cw * self.image(c.img).shape[1] / self.face_w,
                c.sx,
            )
        hp = HandPose(pose.grip, pose.angle, self.sprites[pose.seat], pose.velocity, carry)
        return self.layer.draw(frame, hp)

    def finish(self, frame: U8, index: int = 0, hands: bool = False, raw: bool = False) -> bytes | U8:
        """The camera's effects (if any), sensor noise and JPEG: the encoded frame (``raw``: the
        frame itself, for an encoder that takes pictures). ``hands``: a hand is in view."""
        pos, neg = self.noise[int(self.rng.integers(len(self.noise)))]
        dy = int(self.rng.integers(0, self.pad))  # whole rows: the slice stays contiguous
        cam = self.camera
        if cam is not None:
            frame = cam.process(frame, index, hands)
        if cam is None or cam.noise_lut is None:  # low light brings its own noise
            frame = cv2.subtract(cv2.add(frame, pos[dy : dy + self.h]), neg[dy : dy + self.h])
        if raw:
            return frame
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        assert ok
        return buf.tobytes()


class _Sink:
    """Where frames go: a video file (mp4v / MJPG, or H.264 through ffmpeg) or a folder of JPEG
    files. Decoding and writing run in a thread beside the rendering (OpenCV releases the GIL).
    ``codec`` says what is written: ``jpeg`` (a folder), ``MJPG``, ``mp4v`` or ``h264``."""

    def __init__(self, path: Path, size: tuple[int, int], fps: float, h264_kbps: int = 0) -> None:
        self.folder = path.suffix == "" or path.is_dir()
        self.path = path
        self.n = 0
        self.writer: Any = None
        self.error: BaseException | None = None
        self.raw = False
        if self.folder:
            if h264_kbps:
                raise ValueError("H.264 is written to an .mp4 file, not a folder of frames")
            path.mkdir(parents=True, exist_ok=True)
            self.codec = "jpeg"
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            if h264_kbps and path.suffix.lower() != ".mp4":
                raise ValueError(f"H.264 is written to an .mp4 file, not {path.suffix}")
            if h264_kbps and ffmpeg_path() is None:
                warnings.warn(
                    "H.264 needs ffmpeg (apt-get install ffmpeg) and OpenCV here cannot write it: "
                    f"writing {path.name} with mp4v instead",
                    RuntimeWarning,
                    stacklevel=3,
                )
                h264_kbps = 0
            if h264_kbps:
                self.writer = H264Writer(path, size, fps, h264_kbps)
                self.codec = "h264"
                self.raw = True
            else:
                self.codec = "MJPG" if path.suffix.lower() == ".avi" else "mp4v"
                fourcc = cv2.VideoWriter_fourcc(*self.codec)
                self.writer = cv2.VideoWriter(str(path), fourcc, fps, size)
                if not self.writer.isOpened():
                    raise OSError(f"cannot write a video to {path}")
        self.queue: queue.Queue[bytes | U8 | None] = queue.Queue(maxsize=8)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        n = 0
        while True:
            jpeg = self.queue.get()
            if jpeg is None:
                return
            if self.error is not None:
                continue
            try:
                if self.folder:
                    assert isinstance(jpeg, bytes)
                    (self.path / f"frame_{n:05d}.jpg").write_bytes(jpeg)
                elif self.raw:
                    self.writer.write(jpeg)
                else:
                    assert isinstance(jpeg, bytes)
                    self.writer.write(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR))
            except BaseException as e:
                self.error = e
            n += 1

    def write(self, jpeg: bytes | U8) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put(jpeg)
        self.n += 1

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join()
        if self.writer is not None:
            try:
                self.writer.release()
            except OSError as e:
                self.error = self.error or e
        if self.error is not None:
            raise self.error


def render_video(
    actions: Sequence[Action],
    path: str | Path,
    *,
    deck: Deck | str | None = None,
    size: tuple[int, int] = (1280, 720),
    fps: float = 10,
    card_width: float | None = None,
    reset: str | None = "keep",
    table: str = "wood",
    seed: int = 0,
    blur: bool = True,
    progress: Callable[[int, int], None] | None = None,
    players: int | None = None,
    effects: Effects | Mapping[str, Any] | None = None,
    crib_overlap: float | None = None,
    pace: float = 1.0,
    meta: Mapping[str, Any] | None = None,
) -> Truth:
    """Act out ``actions`` on a table seen from above and write the video to ``path`` (``.mp4``:
    mp4v, or H.264 with ``effects={"h264_kbps": ...}``; ``.avi``: MJPG; a folder or a path
    without suffix: ``frame_00000.jpg`` ...), and the ground truth to ``<path>.truth.json``;
    returns the truth.

    ``deck``: a :class:`Deck` or its name (default: the first held-out artwork deck, or the drawn
    style 7); ``card_width``: px (default 130 at 1280 px wide, scaled with ``size``); ``reset``:
    ``"keep"`` or ``"turn-down"`` for every ``reset`` action (None: each action's own ``mode``);
    ``table``: ``"wood"`` (light or dark, drawn from the seed) or a kind of
    :func:`vision.synth.tables.table` (``maple``, ``white_laminate``, ``wood_dark`` ...);
    ``players``: 2, 3 or 4 seats laid out as :data:`LAYOUTS` (default: as many as the script
    names, at least 2); ``effects``: real-camera effects (:class:`vision.synth.effects.Effects`
    or its JSON mapping); ``crib_overlap``: each crib card of the show covers this share of the
    one before (e.g. 1/3; default: about 60 %, a tight spread); ``pace``: scales the idle times
    (0.6: a brisker game, shorter videos); ``meta``: more keys for the truth JSON;
    ``progress(done, total)`` is called after each frame. The same arguments give the same frames.

    >>> import tempfile, os
    >>> acts = [{"do": "deal", "dealer": "D"}, {"do": "play", "seat": "A", "card": "5S"}]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     t = render_video(acts, os.path.join(d, "f"), deck=procedural_deck(7), size=(320, 180),
    ...                      effects={"flicker": 0.1})
    >>> t.to_json()["players"], t.to_json()["effects"]
    (4, {'flicker': 0.1})
    """
    if reset not in (None, "keep", "turn-down"):
        raise ValueError(f"reset must be keep or turn-down, not {reset!r}")
    players = players or players_of(actions)
    if players not in LAYOUTS:
        raise ValueError(f"a table of 2, 3 or 4 players, not {players}")
    if crib_overlap is not None and not 0 < crib_overlap < 1:
        raise ValueError(f"crib_overlap is a share of a card between 0 and 1, not {crib_overlap}")
    if pace <= 0:
        raise ValueError(f"pace must be above 0, not {pace}")
    fx = Effects.from_json(effects)
    w, h = size
    deck = deck_by_name(deck) if isinstance(deck, str) else (deck or _default_deck())
    cw = float(card_width) if card_width is not None else 130.0 * w / 1280
    rng = np.random.default_rng(seed)
    camera = Camera(fx, (w, h), fps, seed) if fx.any else None
    seats = list(LAYOUTS[players])
    rend = _Renderer((w, h), deck, cw, table, rng, blur, seats, camera)
    plan = _Planner(
        (w, h), fps, cw, rend.aspect, reset, np.random.default_rng([seed, 1]), players, crib_overlap, pace
    )
    plan.crib_offsets = rend.crib_offsets
    planned: list[tuple[Action, list[FrameSpec], list[str], list[dict[str, Any]]]] = []
    for a in actions:
        frames, keys = plan.act(dict(a))
        snapshot = [(p.key, p.card, p.owner, p.up) for p in plan.pieces.values()]
        planned.append((dict(a), frames, keys, snapshot))  # type: ignore[arg-type]
    total = sum(len(f) for _, f, _, _ in planned)
    out = Path(path)
    sink = _Sink(out, (w, h), fps, fx.h264_kbps)

    def tq(key: str) -> list[list[float]]:
        q = rend.quad(rend.pieces[key])
        if camera is not None:
            q = camera.quad(q)
        return np.round(q, 1).tolist()

    extra: dict[str, Any] = {
        "players": players,
        "centre": list(CENTRE_ZONE),
        "seats": {s: list(LAYOUTS[players][s].zone) for s in seats},
        "table_kind": rend.table_kind,
        "codec": sink.codec,
        "crib_overlap": crib_overlap,
        "pace": pace,
        "seed": seed,
    }
    extra.update(camera.to_json() if camera is not None else {"effects": {}})
    extra.update(dict(meta or {}))
    truth = Truth(
        fps=fps,
        size=(w, h),
        deck=deck.name,
        reset=reset or "per-action",
        frames=total,
        path=str(out) + ".truth.json",
        extra=extra,
    )
    index = 0
    try:
        for action, frames, keys, snapshot in planned:
            start = index
            last_change = max((i for i, f in enumerate(frames) if f.changes), default=0)
            still: int | None = None
            mask: U8 | None = None
            for i, spec in enumerate(frames):
                for ch in spec.changes:
                    rend.apply(ch)
                if i == last_change and keys:
                    mask = np.zeros((h, w), np.uint8)
                    for k in keys:
                        if k in rend.pieces:
                            q = rend.quad(rend.pieces[k])
                            cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
                frame = rend.still_table().copy()
                covered = False
                seen = False
                for pose in spec.poses:
                    got = rend.hand(frame, pose)
                    if got is None:
                        continue
                    seen = True
                    x0, y0, x1, y1, cov = got
                    if mask is None or not mask.any() or np.any((cov > 8) & (mask[y0:y1, x0:x1] > 0)):
                        covered = True
                if still is None and i >= last_change and not covered:
                    still = index
                sink.write(rend.finish(frame, index, seen, raw=sink.raw))
                index += 1
                if progress is not None:
                    progress(index, total)
            entry = dict(action)
            entry.update(start=start, still=still if still is not None else index - 1, end=index - 1)
            entry["table"] = [
                {
                    "card": card,
                    "owner": owner,
                    "face_up": up,
                    "quad": tq(key),
                }
                for key, card, owner, up in snapshot
                if key in rend.pieces
            ]
            if keys and action["do"] in ("play", "starter", "crib"):
                entry["placed"] = [
                    {"card": rend.pieces[k].card, "quad": tq(k)}
                    for k in keys
                    if k in rend.pieces
                ]
            truth.actions.append(entry)
    finally:
        sink.close()
    Path(truth.path).write_text(json.dumps(truth.to_json(), indent=1))
    return truth


# ----------------------------------------------------------------------------- command line
def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.synth.video --deal golden --reset turn-down --out /tmp/deal.mp4``"""
    from vision.synth.deals import game_script, golden_script, random_script

    ap = argparse.ArgumentParser(prog="python -m vision.synth.video", description=__doc__.split("\n")[0])
    ap.add_argument("--deal", choices=["golden", "random"], default="golden")
    ap.add_argument("--reset", choices=["keep", "turn-down"], default="turn-down")
    ap.add_argument("--out", required=True, help=".mp4 (mp4v), .avi (MJPG) or a folder of JPEG frames")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--fps", type=float, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--deck", default=None, help="procedural-N or a catalogue name (default: a held-out deck)"
    )
    ap.add_argument("--card-width", type=float, default=None)
    ap.add_argument("--table", default="wood")
    ap.add_argument("--deals", type=int, default=1, help="with --deal random: how many deals (0: all)")
    ap.add_argument("--settings", type=json.loads, default=None,
                    help='with --deal random: the game\'s settings JSON, e.g. \'{"players": "Ann,Bob,Cat"}\'')
    ap.add_argument("--effects", type=json.loads, default=None,
                    help='real-camera effects JSON, e.g. \'{"low_light": 1, "h264_kbps": 1000}\'')
    ap.add_argument("--crib-overlap", type=float, default=None, help="share of a crib card the next covers")
    ap.add_argument("--pace", type=float, default=1.0, help="scales the idle times (0.6: brisker)")
    args = ap.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    meta: dict[str, Any] = {}
    if args.deal == "golden":
        actions = golden_script(args.reset)
    elif args.settings is None and args.deals:
        actions = random_script(args.seed, args.reset, args.deals)
    else:
        game = game_script(args.settings or {"players": "Ann,Bob"}, args.seed, args.deals or None, args.reset)
        actions, meta = game.actions, game.to_json()
    t0 = time.perf_counter()
    last = [0.0]

    def show(done: int, total: int) -> None:
        now = time.perf_counter()
        if done == total or now - last[0] > 1.0:
            last[0] = now
            ms = (now - t0) * 1000 / done
            print(
                f"\rframe {done}/{total} ({ms:.1f} ms/frame)",
                end="" if done < total else "\n",
                file=sys.stderr,
                flush=True,
            )

    truth = render_video(
        actions,
        args.out,
        deck=args.deck,
        size=(w, h),
        fps=args.fps,
        card_width=args.card_width,
        reset=args.reset,
        table=args.table,
        seed=args.seed,
        progress=show,
        effects=args.effects,
        crib_overlap=args.crib_overlap,
        pace=args.pace,
        meta=meta,
    )
    print(truth.path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
