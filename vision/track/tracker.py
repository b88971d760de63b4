"""Frames in, cards laid out: the table as the camera has seen it settle.

The :class:`Tracker` reads only what changed and only where it is still. Each frame is cut to a
small grey copy (:mod:`vision.track.motion`) that remembers where something last moved; while a
hand moves over a place nothing there is read. Once a place that differs from the table as last
read has been still for a few frames (wherever else the hand may be), it is read with the card
reader, a few times over the next frames. A card read the same way in ``agree`` of those
readings, at the same place, is **laid**: the tracker reports a :class:`Sighting` once, with the
frame, its confidence and a crop of the card as the camera saw it. Something card-like that
never reads surely is reported once as a :class:`Doubt`, for the players to confirm.

The table model only grows within a deal: a card covered by a hand, or turned face down where it
lies, is *hidden*, not taken back, and a card turned face up again where it lay is the same
card, not a new one. :meth:`Tracker.new_deal` tells it the deal is over: the cards then lying
are forgotten once they are seen gone.

>>> import numpy as np
>>> from vision.track.zones import Zones
>>> def fake_reader(image):  # a reader that sees a bright patch as the five of hearts
...     ys, xs = np.nonzero(image[..., 0] > 200)
...     cards = [Seen("5H", 0.95, (float(xs.mean()), float(ys.mean())), 10.0)] if len(xs) else []
...     return cards, []
>>> tracker = Tracker(Zones.default(2), reader=fake_reader)
>>> table = np.full((360, 640, 3), 60, np.uint8)
>>> laid = table.copy(); laid[230:320, 300:365] = 240
>>> found = [tracker.feed(f, n) for n, f in enumerate([table] * 8 + [laid] * 8)]  # laid at frame 8
>>> [(n, s.card, s.zone) for n, out in enumerate(found) for s in out]
[(12, '5H', 'A')]
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.track.motion import (
    MOVE_SHARE,
    MotionMap,
    changed_boxes,
    merge,
    small_grey,
    to_frame,
    unread_tiles,
)
from vision.track.seats import Seats
from vision.track.zones import CENTRE, Zones

__all__ = ["Doubt", "Seen", "Sighting", "TableCard", "Tracker", "read_with_reader"]

BGR = npt.NDArray[np.uint8]
Box = tuple[int, int, int, int]

READS = (0, 1, 3)  # still frames (counted from settling) from which the changed regions are read
READS_PER_FRAME = 1  # windows read in one frame at most: the rest wait for the next frames
AGREE = 2  # readings that must name the same card at the same place for it to count as laid
NEAR = 4.5  # glyph sizes: two readings of one card this close are the same card
SAME_PLACE = 2.0  # glyph sizes: two readings this close are of one index, whatever they read
CARD = 13.0  # glyph sizes: about a card's width
ON_CARD = 3.0  # glyph sizes: an unread index this near a card read is that card's
# glyph sizes: a card read this close to where the same card lies is that card (a deck has one of
# each; a card's centre is placed from its outline where it shows whole, else from its index)
SAME_CARD = 2 * CARD
CROP = 7.0  # glyph sizes around a card's centre kept as its crop (a card is ~13 glyphs wide)
CROP_MAX = 200  # px: crops are scaled down to this side at most
PAD = 0.03  # each changed place is read with this share of the frame's width around it
WHOLE = 0.35  # changes over this share of the frame: the whole frame is read instead
STILL_GROW = 2  # small pixels round a change that must be still too before it is read
MIN_READ = 0.2  # a place is read in a window at least this share of the frame's long side high
OBLONG = 1.4  # and at least this much wider than high (see _window)
PLACE_GROW = 0.05  # a new card's centre lies within this share of the frame's width of its change
CARD_WIDTH = 0.1  # a card's width, as a share of the frame's width (130 px of 1280 at the mount's height)
CARD_ASPECT = 1.4  # a card's height over its width
PALE_TABLE = 1.08  # paper is at least this much brighter than the table (B + G + R), even a white one
FLICKER = 0.03  # rows this much brighter or darker than over the last frames: a lamp's flicker
STEADY_ROWS = 32  # rows of a window taken out of flicker at once (1 MB in float at 1280 px)
LONGEST = 1.25  # card heights: new paper longer than this is no single card
STILL_THERE = 1.0  # card widths: a card of a deal gone by read this near where it lay still lies there
REVEALED_SHARE = 0.6  # new paper this much on cards read before is those cards, uncovered
BODY = 0.38  # card widths: a card's centre from its index, down the card and to the index's right
REVEALED = 0.45  # card widths: new paper centred this near a card read again is that card, uncovered
CARD_SHARE = 0.18  # new face-up paper of this share of a card's area, unread, is a card in doubt
SOLID_SHARE = 0.06  # and this share of a card in solid paper (a back's border and print are thin)
SOLID_EDGE = 0.07  # card widths: paper this far in from every edge is solid
PAPER_TINT = 0.07  # paper's tint (r, g, b shares) is within this of the brightest parts' own
PAPER_LEVEL = 0.7  # and it is brighter than this share of the frame's brightest
OVERLAP = 0.8  # card widths: a card laid this near a card read before lies over it, in its row
INDEX_R = 1.2  # glyph sizes round a corner index compared with the table as last read
INDEX_SAME = 14.0  # grey levels: a corner index whose place changed less still lies there face up
INDEX_AGAIN = 20.0  # grey levels: a hidden card's index this like it was when read is that card turned up


@dataclass(frozen=True)
class Seen:
    """One reading of one card in one frame (frame pixels): name or None (unreadable),
    confidence, centre and the glyph size of its index; for an unreadable index, the cards it was
    read as below the threshold (``likely``, surest first)."""

    card: str | None
    confidence: float
    center: tuple[float, float]
    size: float
    likely: tuple[str, ...] = ()
    down: tuple[float, float] | None = None  # the card's "down" as its index shows it (see IndexSeen)
    whole: bool = False  # the centre is the card's own (from its outline or both indices), not an index's
    marks: tuple[tuple[float, float], ...] = ()  # where its corner indices were read (image pixels)


Reader = Callable[[BGR], tuple[list[Seen], list[Seen]]]
"""Reads a BGR image: (cards read, indices left unreadable), in the image's pixels."""


def read_with_reader(image: BGR) -> tuple[list[Seen], list[Seen]]:
    """The project's card reader (:func:`vision.reader.read_cards`) as a tracker :data:`Reader`."""
    from vision.reader import read_cards

    reading = read_cards(image)
    cards = [Seen(c.card.name, c.confidence, c.center, max((i.size for i in c.indices), default=10.0),
                  down=c.indices[0].down if c.indices else None,
                  whole=c.quad is not None or len(c.indices) >= 2,
                  marks=tuple(i.center for i in c.indices))
             for c in reading.cards]
    doubts = [Seen(None, 0.0, u.center, u.size or 10.0, u.likely) for u in reading.unreadable]
    return cards, doubts


@dataclass(frozen=True)
class Sighting:
    """A card newly laid on the table: reported once, at ``frame``, in ``zone`` (``"centre"``, a
    seat's letter, or None), read in ``votes`` still frames with mean ``confidence``;
    ``settled`` is the first still frame of that look; ``crop`` the card as the camera saw it."""

    card: str
    zone: str | None
    center: tuple[float, float]
    frame: int
    confidence: float
    settled: int
    votes: int
    crop: BGR = field(repr=False, compare=False)
    down: tuple[float, float] | None = None  # its index's down, if read: its seat (vision.track.seats)
    lying: bool = False  # read in the first look at a part of the table nothing moved over: not laid


@dataclass(frozen=True)
class Doubt:
    """Something card-like at ``center`` that was not read surely in the still frames of one
    look: ``likely`` holds the cards it was read as (best first), if any. ``what`` is ``"index"``
    for a corner index seen but not read surely, ``"card"`` for a new face-up card whose index was
    not found at all (its crop is then the whole changed place)."""

    zone: str | None
    center: tuple[float, float]
    frame: int
    likely: tuple[str, ...]
    confidence: float
    crop: BGR = field(repr=False, compare=False)
    what: str = "index"


@dataclass
class TableCard:
    """A card the tracker holds as lying on the table."""

    card: str
    center: tuple[float, float]
    size: float
    zone: str | None
    laid: int  # the frame at which it was reported
    visible: bool = True
    deal: int = 0
    named: bool = False  # named by the players (a card the reader could not read): held as face up
    down: tuple[float, float] | None = None  # the way the card's body lies from its index, if read
    body: tuple[float, float] | None = None  # the centre of the card's body (frame pixels), if known
    marks: tuple[tuple[float, float], ...] = ()  # where its corner indices were read (frame pixels)
    prints: list[npt.NDArray[np.float32]] = field(default_factory=list, repr=False)  # each mark, small copy

    def covers(self, x: npt.NDArray[np.float64], y: npt.NDArray[np.float64],
               width: float) -> npt.NDArray[np.bool_]:
        """Which of the points (``x``, ``y``) lie on this card's body (a card ``width`` wide),
        when the way it lies is known; else those within half a card of its centre."""
        cx, cy = self.body or self.center
        if self.down is None:
            return np.hypot(x - cx, y - cy) < REVEALED * width
        dx, dy = self.down
        along = (x - cx) * dx + (y - cy) * dy
        across = (x - cx) * dy - (y - cy) * dx
        return (np.abs(along) < 0.55 * CARD_ASPECT * width) & (np.abs(across) < 0.55 * width)


@dataclass
class _Slot:
    """Readings at one place during one look."""

    center: tuple[float, float]
    size: float
    votes: dict[str | None, list[float]] = field(default_factory=dict)
    guesses: dict[str, int] = field(default_factory=dict)  # names an unreadable index was read as
    lie: tuple[tuple[float, float], bool, tuple[float, float]] | None = None  # down, whole, centre read
    marks: tuple[tuple[float, float], ...] = ()  # where the card's indices were last read

    def add(self, seen: Seen) -> None:
        self.votes.setdefault(seen.card, []).append(seen.confidence)
        if seen.card is not None and seen.marks:
            self.marks = seen.marks
        if seen.card is not None and seen.down is not None and (self.lie is None or seen.whole):
            self.lie = (seen.down, seen.whole, seen.center)
        for rank, name in enumerate(seen.likely[:3]):
            self.guesses[name] = self.guesses.get(name, 0) + 3 - rank

    def best(self) -> tuple[str | None, int, float]:
        """The card read most often (ties: the surer), how often, and its mean confidence."""
        named = [(len(v), sum(v) / len(v), k) for k, v in self.votes.items() if k is not None]
        if not named:
            return None, 0, 0.0
        n, conf, card = max(named)
        return card, n, conf

    def likely(self) -> tuple[str, ...]:
        """The names read here, surest first, then the guesses of readings below the threshold."""
        ranked = sorted(((sum(v), k) for k, v in self.votes.items() if k is not None), reverse=True)
        names = [k for _, k in ranked]
        names += [k for k, _ in sorted(self.guesses.items(), key=lambda kv: -kv[1]) if k not in names]
        return tuple(names)


@dataclass
class _Look:
    """One still place being read: its box in the frame and in the small copy, the readings so far."""

    settled: int
    box: tuple[int, int, int, int]  # the frame's pixels read
    small_box: tuple[int, int, int, int]  # the same in the small copy
    core: tuple[int, int, int, int]  # the small copy's changed place: a hand back over it ends the look
    places: list[tuple[int, int, int, int]]  # the changed places (frame pixels): a new card lies in one
    reads: int = 0
    last_read: int = -1  # the frame of its last reading
    laid: int = 0  # cards this look found laid
    slots: list[_Slot] = field(default_factory=list)
    seen_known: set[int] = field(default_factory=set)
    new_paper: set[int] = field(default_factory=set)  # cards laid, or turned face up, in this look
    dropped: list[_Slot] = field(default_factory=list)  # unread indices taken for a known card's own
    fresh: set[int] = field(default_factory=set)  # cards first laid in this look
    first: bool = False  # the tracker's first look at this part of the table: nothing was seen laid


class Tracker:
    """Turns frames into :class:`Sighting` s and :class:`Doubt` s (see the module's doc).

    ``reader`` reads a BGR image (:func:`read_with_reader` by default); ``settle`` still frames
    start a look; ``reads`` are the still frames of a look that are read (counted from the first);
    ``agree`` readings must name the card. ``status`` says what the tracker is doing
    (``"watching"`` or ``"hand over the table"``) and ``ms`` the time the last frame took.
    """

    def __init__(self, zones: Zones, *, reader: Reader | None = None, settle: int = 2,
                 reads: tuple[int, ...] = READS, agree: int = AGREE, seats: Seats | None = None) -> None:
        self.zones = zones
        self.seats = seats  # seats found from the cards (--zones auto): the follower settles them
        self.reader = reader or read_with_reader
        self.motion = MotionMap(window=2)
        self.settle = settle
        self.reads = reads
        self.agree = agree
        self.cards: list[TableCard] = []
        self.status = "watching"
        self.ms = 0.0
        self.deal = 0
        self._reference: npt.NDArray[np.uint8] | None = None  # the table as last read (small copy)
        self._read_mask = np.zeros((0, 0), bool)  # where the reference holds the table read
        self._looks: list[_Look] = []
        self._size = (0, 0)
        self._number = -1  # the last frame fed
        self._paper_ref: npt.NDArray[np.bool_] | None = None  # face-up paper in the table as last read
        self._colour: tuple[int, npt.NDArray[np.uint8]] | None = None  # this frame's small colour copy
        self._white: tuple[float, npt.NDArray[np.float32]] | None = None  # paper's level and tint
        self._table: float | None = None  # the table's level (B + G + R), the frame's median
        self.expect: tuple[str, ...] = ()  # zones read first when several places wait (the game's guess)
        self._rows: deque[npt.NDArray[np.float32]] = deque(maxlen=9)  # each row's level, recent frames
        self.restarted = False  # frame numbers began again (or the size changed): a source come back
        self._watched = False  # the whole table read once: what lay there before was learnt
        self._began: int | None = None  # the first frame fed
        self._left: list[tuple[str, tuple[float, float]]] = []  # cards left be where they lie

    # -- what the game tells it ----------------------------------------------------------------

    def new_deal(self) -> None:
        """The deal is over: the cards lying now belong to it and are forgotten once seen gone."""
        self.deal += 1
        self.cards = [c for c in self.cards if c.visible]

    def rezone(self, zones: Zones) -> None:
        """Use ``zones`` from now on (the seats found from the cards): each card held is in the
        zone it lies in."""
        self.zones = zones
        w, h = self._size
        for c in self.cards:
            c.zone = zones.zone_of(c.center[0], c.center[1], w, h) if w and h else c.zone

    @property
    def size(self) -> tuple[int, int]:
        """The frames' size (w, h); (0, 0) before the first."""
        return self._size

    def unlay(self, card: str, center: tuple[float, float]) -> None:
        """Take back a card reported as laid at ``center`` that the game did not take (a misread,
        say): it no longer stands in the way of that card read elsewhere."""
        self.cards = [c for c in self.cards if not (c.card == card and c.center == center)]

    def forget(self) -> None:
        """Read the whole table again once it is still (a camera that came back): what lies
        there is learnt afresh, each card reported again (the game skips what it holds)."""
        self.cards = []
        self._reference = None
        self._paper_ref = None
        self._looks = []
        self.motion = MotionMap(window=2)

    def leave_be(self, card: str, center: tuple[float, float]) -> None:
        """Never report ``card`` lying at ``center`` (frame pixels) again: the follower found it no
        card of the play (an ace printed on the felt). Kept when the table is read afresh
        (:meth:`forget`: a new game, a camera come back); the same card laid elsewhere is new."""
        self._left.append((card, center))

    def _is_left_be(self, card: str, center: tuple[float, float]) -> bool:
        """Whether ``card`` read at ``center`` is one left be (within a third of a card)."""
        reach = self.card_width / 3
        return any(c == card and _dist(at, center) < reach for c, at in self._left)

    def moved_since(self, at: tuple[float, float], frame: int) -> bool:
        """Whether anything moved within a third of a card of ``at`` (frame pixels) after
        ``frame``: a hand that came by (and may have laid a card there)."""
        last = self.motion.last_moved
        if last is None or self._size[0] == 0:
            return True
        w, h = self._size
        sx, sy = last.shape[1] / w, last.shape[0] / h
        r = self._card_width(max(w, h)) / 3
        x0, x1 = int((at[0] - r) * sx), int(np.ceil((at[0] + r) * sx))
        y0, y1 = int((at[1] - r) * sy), int(np.ceil((at[1] + r) * sy))
        part = last[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
        return bool(part.size) and int(part.max()) > frame

    def adopt(self, card: str, center: tuple[float, float]) -> bool:
        """Take ``card``, laid at ``center`` just before :meth:`new_deal`, into the new deal
        (read early, while the game still waited on the last one); False if it is gone."""
        for c in self.cards:
            if c.card == card and c.center == center and c.visible:
                c.deal = self.deal
                return True
        return False

    def look_again(self, zone: str) -> None:
        """Read ``zone`` (``"centre"`` or a seat's letter) afresh once it is still: the game
        knows a card is there that no look read (a crib spread short of a card, say).

        >>> tracker = Tracker(Zones.default(2), reader=lambda image: ([], []))
        >>> tracker.look_again("centre")  # before any frame: nothing to read again yet
        """
        if self._read_mask.size == 0:
            return
        h, w = self._read_mask.shape
        x0, y0, x1, y1 = self.zones.centre if zone == CENTRE else self.zones.seat(zone)
        self._read_mask[int(y0 * h):int(y1 * h) + 1, int(x0 * w):int(x1 * w) + 1] = False

    def quiet(self) -> int:
        """Frames the whole table has lain still, with nothing left to read, as of the last frame
        fed (0 while a hand moves or a place waits to be read): the deadline of every wait is
        counted in these (:class:`vision.track.follow.Follower`).

        >>> Tracker(Zones.default(2), reader=lambda image: ([], [])).quiet()
        0
        """
        last = self.motion.last_moved
        if last is None or self._looks or self._number < 0:
            return 0
        return int(self._number - last.max())

    def visible(self, zone: str | None = None) -> list[TableCard]:
        """The cards of this deal seen face up at their last reading (in ``zone``, if given)."""
        return [c for c in self.cards if c.visible and c.deal == self.deal
                and (zone is None or c.zone == zone)]

    # -- frames --------------------------------------------------------------------------------

    def feed(self, image: BGR, number: int, lores: npt.NDArray[np.uint8] | None = None
             ) -> list[Sighting | Doubt]:
        """Feed frame ``number`` (BGR; ``lores``: the camera's small grey copy, if it has one);
        returns what was laid or found in doubt at this frame."""
        t0 = time.perf_counter()
        try:
            return self._feed(image, number, lores)
        finally:
            self.ms = (time.perf_counter() - t0) * 1000

    def _feed(self, image: BGR, number: int, lores: npt.NDArray[np.uint8] | None) -> list[Sighting | Doubt]:
        h, w = image.shape[:2]
        if (w, h) != self._size or number <= self._number:  # another camera, or the same begun again
            self.restarted = self._number >= 0
            self._size = (w, h)
            self.forget()
        self._number = number
        if self._began is None:
            self._began = number
        small = small_grey(lores if lores is not None else image)
        if self._reference is None or self._reference.shape != small.shape:
            self._paper_ref = self._paper_now(image, number, small.shape)
        self._rows.append(np.median(small, axis=1).astype(np.float32))
        share = self.motion.update(small, number)
        self.status = "hand over the table" if share > MOVE_SHARE else "watching"
        self._start_looks(small, number, (w, h))
        out: list[Sighting | Doubt] = []
        budget = READS_PER_FRAME
        for look in sorted(self._looks, key=lambda look: self._urgency(look, number)):
            if self.motion.still_for(look.core, number) < 1:
                self._looks.remove(look)  # a hand came back over it: read it when it is still again
                continue
            # its next reading is due (a frame skipped by a slow consumer delays it, never loses it)
            due = number - look.settled >= self.reads[look.reads] and number > look.last_read
            if not due or budget == 0:
                continue
            budget -= 1
            look.last_read = number
            self._read(look, image)
            out += self._commit(look, image, number, small)
            settled = look.reads >= self.agree and not any(slot.votes for slot in look.slots)
            if look.reads == len(self.reads) or settled:
                out += self._close(look, image, number, small)
                out += self._unexplained(look, image, small, number)
                self._settle_reference(look, small, image, number)
                self._looks.remove(look)
        return out

    def _steady(self, image: BGR, y0: int, y1: int, x0: int, x1: int) -> BGR:
        """The window ``image[y0:y1, x0:x1]`` with a mains lamp's flicker bands taken out: each
        row brought back to its brightness over the last frames (the bands move from frame to
        frame, so their median over time is the light without them)."""
        window = np.ascontiguousarray(image[y0:y1, x0:x1])
        if len(self._rows) < 3:
            return window
        now = self._rows[-1]
        steady = np.median(np.stack(self._rows), axis=0)
        gain = steady / np.maximum(now, 1.0)
        if float(np.max(np.abs(gain - 1))) < FLICKER:
            return window
        h = image.shape[0]
        rows = np.interp((np.arange(y0, y1) + 0.5) * len(gain) / h - 0.5, np.arange(len(gain)), gain)
        out = np.empty_like(window)
        for r in range(0, len(window), STEADY_ROWS):  # a block at a time: a whole frame in float is 22 MB
            block = window[r : r + STEADY_ROWS] * rows[r : r + STEADY_ROWS, None, None]
            out[r : r + STEADY_ROWS] = np.clip(block, 0, 255, out=block)  # truncated, as astype does
        return out

    def _urgency(self, look: _Look, number: int) -> tuple[int, int]:
        """The order looks are read in: those begun (their next reading soonest lost), then those
        in a zone the game expects a card in, then the oldest."""
        h, w = self._size[1], self._size[0]
        x0, y0, x1, y1 = look.box
        zone = self.zones.zone_of((x0 + x1) / 2, (y0 + y1) / 2, w, h)
        expected = 0 if zone in self.expect else 1
        return (0 if look.reads else 1 + expected, look.settled)

    def _start_looks(self, small: npt.NDArray[np.uint8], number: int, size: tuple[int, int]) -> None:
        """Start reading each changed place that has been still for ``settle`` frames (and each
        part of a table never read, tile by tile, once it is still)."""
        if self._reference is None or self._reference.shape != small.shape:
            self._reference = small.copy()
            self._read_mask = np.zeros(small.shape, bool)
        busy = [look.small_box for look in self._looks]
        whole_small = (0, 0, small.shape[1], small.shape[0])
        still = self.motion.still_for(whole_small, number) >= self.settle
        tiles = unread_tiles(self._read_mask, busy)
        first = not self._watched  # a part of the table never read since the camera began
        if not tiles:
            self._watched = True
        if tiles and still and not self._looks:
            self._looks.append(_Look(number, (0, 0, *size), whole_small, whole_small, [(0, 0, *size)],
                                     first=first))
            return
        pad = PAD * max(size)
        for tile in tiles:
            if self.motion.still_for(tile, number) >= self.settle:
                self._add_look(number, [tile], to_frame(tile, small.shape, size, pad), small.shape, size,
                               first=first)
        ready = []
        for box in changed_boxes(self._reference, small, busy, self._read_mask):
            grown = (box[0] - STILL_GROW, box[1] - STILL_GROW, box[2] + STILL_GROW, box[3] + STILL_GROW)
            if self.motion.still_for(grown, number) >= self.settle:
                ready.append(box)
        if not ready:
            return
        windows = [(_window(to_frame(box, small.shape, size, pad), size), box) for box in ready]
        # places whose windows overlap are read together, in one window round them all
        groups = [([box for window, box in windows if _contains(joint, window)], joint)
                  for joint in merge([window for window, _ in windows])]
        area = sum((b[2] - b[0]) * (b[3] - b[1]) for _, b in groups)
        if area > WHOLE * size[0] * size[1] and still:
            # the whole table read at once, but a new card is taken only where the table changed:
            # a card that lay unread where nothing moved (an ace printed on the felt) is not laid
            places = [to_frame(box, small.shape, size, PLACE_GROW * max(size)) for box in ready]
            self._looks.append(_Look(number, (0, 0, *size), whole_small, whole_small, places))
            return
        for cores, box in groups:
            self._add_look(number, cores, box, small.shape, size)

    def _add_look(self, number: int, cores: list[Box], box: Box, small_shape: tuple[int, ...],
                  size: tuple[int, int], first: bool = False) -> None:
        sx, sy = small_shape[1] / size[0], small_shape[0] / size[1]
        small_box = (int(box[0] * sx), int(box[1] * sy), int(np.ceil(box[2] * sx)), int(np.ceil(box[3] * sy)))
        g = STILL_GROW
        core = (min(c[0] for c in cores) - g, min(c[1] for c in cores) - g,
                max(c[2] for c in cores) + g, max(c[3] for c in cores) + g)
        places = [to_frame(c, small_shape, size, PLACE_GROW * max(size)) for c in cores]
        self._looks.append(_Look(number, box, small_box, core, places, first=first))

    def _settle_reference(self, look: _Look, small: npt.NDArray[np.uint8], image: BGR, number: int) -> None:
        """The place just read is the table as last read, where it was still (a hand moving in
        a corner of the window is not the table: the table under it is read once it has gone)."""
        x0, y0, x1, y1 = look.small_box
        if self._reference is not None:
            moved = self.motion.last_moved
            still = np.ones((y1 - y0, x1 - x0), bool) if moved is None or moved.shape != small.shape \
                else moved[y0:y1, x0:x1] <= number - self.settle
            self._reference[y0:y1, x0:x1][still] = small[y0:y1, x0:x1][still]
            self._read_mask[y0:y1, x0:x1] |= still
            paper = self._paper_now(image, number, small.shape)
            if self._paper_ref is None or self._paper_ref.shape != paper.shape:
                self._paper_ref = paper.copy()
            self._paper_ref[y0:y1, x0:x1][still] = paper[y0:y1, x0:x1][still]

    def _small_colour(self, image: BGR, number: int, shape: tuple[int, ...]) -> npt.NDArray[np.uint8]:
        """The frame at the small copy's size, in colour (made once a frame, when needed)."""
        if self._colour is None or self._colour[0] != number or self._colour[1].shape[:2] != shape[:2]:
            small = cv2.resize(image, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
            self._colour = (number, small)
            self._learn_white(small)
        return self._colour[1]

    def _learn_white(self, small: npt.NDArray[np.uint8]) -> None:
        """Paper's level and tint, learnt from the frames that show paper (cards lie face up):
        a table with no card shows none, and its brightest wood is not taken for paper."""
        table = float(np.median(small.astype(np.float32).sum(axis=2)))  # most of the frame is table
        self._table = table if self._table is None else 0.9 * self._table + 0.1 * table
        top, tint = _white(small)
        above = top > PALE_TABLE * self._table  # the brightest is brighter than the table: paper
        if self._white is None or (above and top >= 0.85 * self._white[0]):
            level, old = self._white if self._white is not None else (top, tint)
            self._white = (0.8 * level + 0.2 * top, (0.8 * old + 0.2 * tint).astype(np.float32))
        else:  # the camera's exposure may have fallen: paper's level follows, slowly (above the table)
            self._white = (max(0.995 * self._white[0], PALE_TABLE * self._table), self._white[1])

    def _paper_now(self, image: BGR, number: int, shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
        small = self._small_colour(image, number, shape)
        return _paper(small, self._white, self._table or 0.0)

    def _unexplained(self, look: _Look, image: BGR, small: npt.NDArray[np.uint8],
                     number: int) -> list[Doubt]:
        """New face-up paper, about a card's size or more, where this look read no card, knew no
        card and found no index: a card whose index the reader did not find at all. It is
        reported as a :class:`Doubt` with a crop of the whole place, never left unsaid."""
        if self._paper_ref is None or self._reference is None or self._paper_ref.shape != small.shape:
            return []
        sx0, sy0, sx1, sy1 = look.small_box
        now = self._paper_now(image, number, small.shape)
        gain = np.zeros(small.shape, np.uint8)
        region = now[sy0:sy1, sx0:sx1] & ~self._paper_ref[sy0:sy1, sx0:sx1]
        gain[sy0:sy1, sx0:sx1] = region
        if np.count_nonzero(gain) == 0:
            return []
        h, w = image.shape[:2]
        fx, fy = w / small.shape[1], h / small.shape[0]
        card_w = self._card_width(max(w, h)) / fx  # small pixels
        gain = cv2.morphologyEx(gain, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(
            cv2.dilate(gain, np.ones((5, 5), np.uint8)), connectivity=8)
        counted = np.bincount(labels[gain > 0], minlength=n)
        here = [c.center for c in self.cards if id(c) in look.new_paper]
        here += [slot.center for slot in look.slots if not any(slot is d for d in look.dropped)]
        again = [c for c in self.cards if c.visible and not c.named
                 and (id(c) not in look.new_paper or c.down is not None)]  # a card laid now: its own body
        ys, xs = np.nonzero(gain)
        out: list[Doubt] = []
        for k in range(1, n):
            x, y, bw, bh, _area = stats[k]
            area = card_w * card_w * CARD_ASPECT
            if counted[k] < CARD_SHARE * area or min(bw, bh) < 0.3 * card_w:
                continue
            box = (x * fx, y * fy, (x + bw) * fx, (y + bh) * fy)
            if not self._solid_paper(image, box, card_w * fx):
                continue  # a card back's pale border and print, not a face
            grow = 0.3 * card_w * fx
            if any(box[0] - grow <= cx <= box[2] + grow and box[1] - grow <= cy <= box[3] + grow
                   for cx, cy in here):
                continue  # a card laid or turned up here in this look
            if self.motion.still_for((int(x) - 1, int(y) - 1, int(x + bw) + 1, int(y + bh) + 1), number) \
                    < self.settle:
                continue  # a hand is still by it: judged by a later look, once it has gone
            mine = labels[ys, xs] == k
            (_, _), (rw, rh), _ = cv2.minAreaRect(np.column_stack([xs[mine], ys[mine]]).astype(np.float32))
            if max(rw, rh) > LONGEST * card_w * CARD_ASPECT:
                continue  # longer than a card: a hand's or an arm's shadow gone from a pale table
            px, py = (xs[mine] + 0.5) * fx, (ys[mine] + 0.5) * fy
            on = np.zeros(len(px), bool)
            for c in again:
                on |= c.covers(px, py, card_w * fx)
            if on.mean() >= REVEALED_SHARE:
                continue  # cards read here before, uncovered again (a hand or an arm lay over them)
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            crop = _crop_box(image, box, 0.15 * card_w * fx)
            out.append(Doubt(self.zones.zone_of(centre[0], centre[1], w, h), centre, number, (), 0.0,
                             crop, what="card"))
        return out

    def _solid_paper(self, image: BGR, box: tuple[float, float, float, float], card_w: float) -> bool:
        """Whether ``box`` (frame pixels) holds paper in solid patches, as a card's face does
        round its index and pips, and not only in thin lines, as a back's border and print do:
        paper left after eroding by a twentieth of a card's width, over ``SOLID_SHARE`` of a card."""
        x0, y0, x1, y1 = (int(v) for v in box)
        crop = image[max(0, y0):y1, max(0, x0):x1]
        if crop.size == 0:
            return False
        k = max(3, round(SOLID_EDGE * card_w) | 1)
        paper = _paper(crop, self._white, self._table or 0.0).astype(np.uint8)
        solid = cv2.erode(paper, np.ones((k, k), np.uint8))
        return int(np.count_nonzero(solid)) >= SOLID_SHARE * card_w * card_w * CARD_ASPECT

    @property
    def card_width(self) -> float:
        """A card's width in the frames fed so far (pixels; 1280-pixel frames before any)."""
        return self._card_width(max(self._size) or 1280)

    def _card_width(self, frame_width: int) -> float:
        """A card's width in frame pixels: ``CARD_WIDTH`` of the frame's width (its long side: a
        camera turned a quarter films a frame higher than wide), as the camera's mount sets it
        (docs/camera.md)."""
        return CARD_WIDTH * frame_width

    def _read(self, look: _Look, image: BGR) -> None:
        look.reads += 1
        for x0, y0, x1, y1 in [look.box]:
            cards, doubts = self.reader(self._steady(image, y0, y1, x0, x1))
            for seen in cards + doubts:
                cx, cy = seen.center[0] + x0, seen.center[1] + y0
                inner = _inside_any(look.places, cx, cy)
                marks = tuple((mx + x0, my + y0) for mx, my in seen.marks)
                seen = replace(seen, center=(cx, cy), marks=marks)
                known = self._known(seen, inner)
                if known is not None:
                    look.seen_known.add(id(known))
                    if seen.marks:
                        known.marks = seen.marks
                    if not known.visible:
                        look.new_paper.add(id(known))
                    known.visible = True
                    continue
                if not inner:
                    continue
                self._slot(look, seen).add(seen)

    def _known(self, seen: Seen, changed: bool = False) -> TableCard | None:
        """The card on the table that ``seen`` is (same name, same place), if any. A card of a
        deal gone by is it only where it lay (``STILL_THERE``): the deck was shuffled since, and
        the same card laid again elsewhere is a new card (the old one is dropped)."""
        if seen.card is None:
            return None
        width = self._card_width(max(self._size))
        for c in self.cards:
            if c.card != seen.card:
                continue
            if c.deal == self.deal and _dist(c.center, seen.center) < SAME_CARD * max(c.size, seen.size):
                return c
            if c.deal < self.deal:
                if c.visible and _dist(c.center, seen.center) < STILL_THERE * width:
                    return c  # still lying where it lay
                self.cards.remove(c)
                return None
        return None

    def _slot(self, look: _Look, seen: Seen) -> _Slot:
        for slot in look.slots:
            d = _dist(slot.center, seen.center) / max(slot.size, seen.size)
            if d < SAME_PLACE or (d < NEAR and seen.card in slot.votes):
                return slot
        slot = _Slot(seen.center, seen.size)
        look.slots.append(slot)
        return slot

    def _commit(self, look: _Look, image: BGR, number: int,
                small: npt.NDArray[np.uint8]) -> list[Sighting | Doubt]:
        out: list[Sighting | Doubt] = []
        for slot in list(look.slots):
            card, n, conf = slot.best()
            if card is None or n < self.agree:
                continue
            look.slots.remove(slot)
            if any(c.card == card and c.visible and c.deal == self.deal for c in self.cards):
                # the same card read in two places at once: one of them is misread
                out.append(self._doubt(slot, image, number))
                continue
            h, w = image.shape[:2]
            zone = self.zones.zone_of(slot.center[0], slot.center[1], w, h)
            tc = TableCard(card, slot.center, slot.size, zone, number, deal=self.deal, marks=slot.marks)
            tc.prints = self._prints(tc, small)
            if slot.lie is not None:
                (dx, dy), whole, at = slot.lie
                tc.down = (dx, dy)
                width = self._card_width(max(w, h))
                # from a lone index, the body's centre lies down the card and to the index's right
                tc.body = at if whole else (at[0] + BODY * width * (CARD_ASPECT * dx + dy),
                                            at[1] + BODY * width * (CARD_ASPECT * dy - dx))
            self.cards.append(tc)
            look.laid += 1
            look.seen_known.add(id(tc))
            look.new_paper.add(id(tc))
            look.fresh.add(id(tc))
            if self._is_left_be(card, slot.center):
                continue  # held where it lies, never reported: a card left be
            out.append(Sighting(card, zone, slot.center, number, conf, look.settled, n,
                                _crop(image, slot.center, slot.size), tc.down,
                                lying=look.first and not self.moved_since(slot.center, self._began or 0)))
        return out

    def _close(self, look: _Look, image: BGR, number: int,
               small: npt.NDArray[np.uint8]) -> list[Sighting | Doubt]:
        """The look's last reading: what was never read surely is in doubt; cards in the regions
        read that were not seen are hidden (covered, turned face down, or gone), unless a corner
        index of theirs still looks as it did when read (a card laid overlapping the last of a row
        leaves that card's index in view, and the reader may miss it beside the new one)."""
        out: list[Sighting | Doubt] = []
        for slot in look.slots:
            total = sum(len(v) for v in slot.votes.values())
            if total < self.agree:
                continue
            if slot.best()[0] is None and self._on_a_card(slot):
                look.dropped.append(slot)  # an index unread on a card read: that card's own, half covered
                continue
            out.append(self._doubt(slot, image, number))
        keep = []
        light = self._light_change(small)
        for c in self.cards:
            if not c.visible and c.deal == self.deal and id(c) not in look.seen_known \
                    and _inside_any([look.box], *(c.marks[0] if c.marks else c.center)) \
                    and self._turned_up(c, small, light):
                c.visible = True
                look.seen_known.add(id(c))
                look.new_paper.add(id(c))
        for c in self.cards:
            if id(c) not in look.seen_known and not c.named and self._in_view(c, look.box) \
                    and not (c.visible and c.deal == self.deal
                             and (self._index_unchanged(c, small, light) or self._overlapped(c, look))):
                c.visible = False
                if c.deal < self.deal:
                    continue  # a card of a deal gone by, now gone from the table
            keep.append(c)
        self.cards = keep
        return out

    def _in_view(self, card: TableCard, box: Box) -> bool:
        """Whether ``box`` shows where ``card`` would be read: a corner index it was read by (two
        glyph sizes in from the box's edges), or, not knowing them, its centre well inside."""
        w, h = self._size
        if card.marks:
            return any(_well_inside(box, m, 2 * card.size, w, h) for m in card.marks)
        return _well_inside(box, card.center, 0.6 * self._card_width(max(w, h)), w, h)

    def _overlapped(self, card: TableCard, look: _Look) -> bool:
        """Whether a card laid in ``look`` lies on ``card`` (within ``OVERLAP`` card widths): the
        next card of a row, laid over this one, leaves its index in view (the table protocol)."""
        width = self.card_width
        mine = [card.center, *card.marks, *([card.body] if card.body else [])]
        return any(_dist(p, q) < OVERLAP * width for new in self.cards if id(new) in look.fresh
                   for p in mine for q in [new.center, *new.marks])

    def _mark_boxes(self, card: TableCard, shape: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
        """The small copy's box round each of ``card``'s marks (``INDEX_R`` glyph sizes)."""
        if not self._size[0]:
            return []
        sx, sy = shape[1] / self._size[0], shape[0] / self._size[1]
        r = max(2, round(INDEX_R * card.size * sx))
        out = []
        for x, y in card.marks:
            cx, cy = round(x * sx), round(y * sy)
            if r <= cx < shape[1] - r and r <= cy < shape[0] - r:
                out.append((cx - r, cy - r, cx + r + 1, cy + r + 1))
        return out

    def _prints(self, card: TableCard, small: npt.NDArray[np.uint8]) -> list[npt.NDArray[np.float32]]:
        """How ``card``'s corner indices look in the small copy now (as it is laid or read)."""
        boxes = self._mark_boxes(card, small.shape)
        return [small[y0:y1, x0:x1].astype(np.float32) for x0, y0, x1, y1 in boxes]

    def _light_change(self, small: npt.NDArray[np.uint8]) -> float:
        """The frame's even change of light since the table was last read (grey levels)."""
        ref = self._reference
        if ref is None or ref.shape != small.shape:
            return 0.0
        return float(np.median(small.astype(np.int16) - ref.astype(np.int16)))

    def _turned_up(self, card: TableCard, small: npt.NDArray[np.uint8], light: float) -> bool:
        """Whether a hidden ``card`` shows again where it lay: a corner index of it looks as it did
        when it was read (``INDEX_AGAIN``, within a small pixel either way), though the reader may
        not read it now (half under the next card of its row, say)."""
        for (x0, y0, x1, y1), was in zip(self._mark_boxes(card, small.shape), card.prints, strict=False):
            for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                if _alike(small, (x0 + dx, y0 + dy, x1 + dx, y1 + dy), was, light, INDEX_AGAIN):
                    return True
        return False

    def _index_unchanged(self, card: TableCard, small: npt.NDArray[np.uint8], light: float) -> bool:
        """Whether a corner index of ``card`` still looks, in the small copy, as the table looked
        when it was last read there (``INDEX_SAME`` grey levels on average, the even change of
        ``light`` taken out)."""
        ref = self._reference
        if ref is None or ref.shape != small.shape:
            return False
        return any(_alike(small, box, ref[box[1]:box[3], box[0]:box[2]].astype(np.float32), light, INDEX_SAME)
                   for box in self._mark_boxes(card, small.shape))

    def _on_a_card(self, slot: _Slot) -> bool:
        """True when a card of this deal was read within ``ON_CARD`` glyph sizes of ``slot`` (its
        own index, half covered now); a new card laid overlapping the last of a row lies further."""
        return any(c.deal == self.deal and _dist(c.center, slot.center) < ON_CARD * max(c.size, slot.size)
                   for c in self.cards)

    def _doubt(self, slot: _Slot, image: BGR, number: int) -> Doubt:
        h, w = image.shape[:2]
        _card, _n, conf = slot.best()
        return Doubt(self.zones.zone_of(slot.center[0], slot.center[1], w, h), slot.center, number,
                     slot.likely(), conf, _crop(image, slot.center, slot.size, whole=True))


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _alike(small: npt.NDArray[np.uint8], box: Box, was: npt.NDArray[np.float32], light: float,
           limit: float) -> bool:
    """Whether ``small`` inside ``box`` looks like ``was`` (its mean difference, less an even
    change of ``light``, under ``limit`` grey levels); False where the box leaves the image.

    >>> img = np.full((10, 10), 100, np.uint8)
    >>> _alike(img, (2, 2, 5, 5), np.full((3, 3), 90, np.float32), 8.0, 5.0)
    True
    """
    x0, y0, x1, y1 = box
    if x0 < 0 or y0 < 0 or x1 > small.shape[1] or y1 > small.shape[0]:
        return False
    now = small[y0:y1, x0:x1].astype(np.float32)
    return now.shape == was.shape and float(np.mean(np.abs(now - was - light))) < limit


def _inside_any(regions: list[tuple[int, int, int, int]], x: float, y: float) -> bool:
    return any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in regions)


def _contains(outer: Box, inner: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _well_inside(box: Box, at: tuple[float, float], margin: float, w: int, h: int) -> bool:
    """``at`` lies in ``box`` at least ``margin`` from each of its edges inside a ``w`` x ``h``
    frame (a card whose centre is that far in shows its index in the box, whichever way it lies).

    >>> _well_inside((0, 0, 400, 300), (350, 150), 80, 1280, 720)  # near the window's right edge
    False
    >>> _well_inside((0, 0, 400, 300), (50, 50), 80, 1280, 720)  # near the frame's own edges
    True
    """
    x0, y0, x1, y1 = box
    x, y = at
    return ((x0 == 0 or x >= x0 + margin) and (y0 == 0 or y >= y0 + margin)
            and (x1 == w or x <= x1 - margin) and (y1 == h or y <= y1 - margin)
            and x0 <= x <= x1 and y0 <= y <= y1)


def _window(box: Box, size: tuple[int, int]) -> Box:
    """The window a place ``box`` is read in, inside a ``size`` frame: at least ``MIN_READ`` of
    the frame's width high and ``OBLONG`` times as wide as high (a smaller photo is read
    enlarged, and a near-square one, largely paper, is also read as one card resized: both
    slower), where the frame allows.

    >>> _window((600, 300, 700, 420), (1280, 720))
    (470, 232, 829, 488)
    """
    x0, y0, x1, y1 = box
    w, h = size
    want_h = max(y1 - y0, MIN_READ * max(w, h))
    want_w = max(x1 - x0, OBLONG * want_h)

    def grow(lo: int, hi: int, want: float, limit: int) -> tuple[int, int]:
        if hi - lo >= want:
            return lo, hi
        c = (lo + hi) / 2
        lo2 = max(0.0, min(c - want / 2, limit - want))
        return int(lo2), int(min(limit, lo2 + want))

    x0, x1 = grow(x0, x1, want_w, w)
    y0, y1 = grow(y0, y1, want_h, h)
    return (x0, y0, x1, y1)


def _paper(small_bgr: npt.NDArray[np.uint8], white: tuple[float, npt.NDArray[np.float32]] | None = None,
           table: float = 0.0) -> npt.NDArray[np.bool_]:
    """Where a small colour copy shows a card's face: paper, near paper's own brightness and tint
    (``white``: level, the sum of B, G and R, and tint, their shares; by default the brightest of
    this frame's), so a warm lamp's cast is paper's colour too, and not a table's wood, a hand's
    skin or a card back's print (blurred at this size into a pale tint). On a pale table (its
    level ``table`` near paper's) paper is what is brighter than halfway from the table to paper.

    >>> img = np.full((20, 20, 3), (40, 70, 110), np.uint8); img[5:15, 5:12] = (200, 228, 250)
    >>> img[0:4, 0:8] = (230, 170, 120)  # a pale blue back
    >>> int(_paper(img).sum())
    70
    >>> int(_paper(img, (678.0, np.array([0.3, 0.34, 0.36], np.float32))).sum())
    70
    """
    f = small_bgr.astype(np.float32)
    level = f.sum(axis=2)
    chroma = f / np.maximum(level, 1.0)[..., None]
    top, tint = white if white is not None else _white(small_bgr)
    floor = max(PAPER_LEVEL * top, (table + top) / 2)
    return (level > floor) & (np.abs(chroma - tint).sum(axis=2) < PAPER_TINT)


def _white(small_bgr: npt.NDArray[np.uint8]) -> tuple[float, npt.NDArray[np.float32]]:
    """The brightest level in a small colour copy (B + G + R) and the tint of its brightest parts."""
    f = small_bgr.astype(np.float32)
    level = f.sum(axis=2)
    top = max(float(np.percentile(level, 99.5)), 180.0)
    bright = level >= 0.97 * top
    chroma = f[bright] / np.maximum(level[bright], 1.0)[:, None]
    tint = np.median(chroma, axis=0) if len(chroma) else np.full(3, 1 / 3, np.float32)
    return top, tint.astype(np.float32)


def _crop_box(image: BGR, box: tuple[float, float, float, float], pad: float) -> BGR:
    """The frame inside ``box`` grown by ``pad`` px, at most ``CROP_MAX`` px on a side."""
    h, w = image.shape[:2]
    x0, y0 = max(0, int(box[0] - pad)), max(0, int(box[1] - pad))
    x1, y1 = min(w, int(box[2] + pad)), min(h, int(box[3] + pad))
    return _shrink(image[y0:y1, x0:x1])


def _crop(image: BGR, center: tuple[float, float], size: float, whole: bool = False) -> BGR:
    """The card around ``center`` as the camera saw it, at most ``CROP_MAX`` px on a side; with
    ``whole``, wide enough to hold the whole card whichever way it lies from its index."""
    h, w = image.shape[:2]
    r = max(40, int((CARD if whole else CROP) * size))
    x0, y0 = max(0, int(center[0]) - r), max(0, int(center[1]) - r)
    x1, y1 = min(w, int(center[0]) + r), min(h, int(center[1]) + r)
    return _shrink(image[y0:y1, x0:x1])


def _shrink(crop: BGR) -> BGR:
    """``crop`` at most ``CROP_MAX`` px on a side."""
    side = max(crop.shape[:2])
    if side > CROP_MAX:
        f = CROP_MAX / side
        crop = cv2.resize(crop, (max(1, round(crop.shape[1] * f)), max(1, round(crop.shape[0] * f))),
                          interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(crop)
