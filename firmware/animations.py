"""Animations on the peg board, and an animator that plays them without holding up the game.

An animation is an iterator of ``(frame, seconds)`` steps, built from the layout and the pegs:

* :func:`walk`: a seat's back peg walks hole by hole past the front peg to the new score
  (leapfrogging), at most ``max_s`` seconds however far it goes;
* :func:`flash`: "fifteen", "thirty-one", "his-heels" or "muggins" flashes the street of the
  seat's front peg in its own colour (white, white, gold, magenta) 2 to 4 times;
* :func:`winner`: a light runs along the winner's track to the game hole, then the skunk lines
  a loser did not pass blink red, and the final board stays with the game hole gold.

:class:`Animator` owns a daemon thread: :meth:`Animator.play` queues an animation and returns at
once; :meth:`Animator.show` sets the board at rest (shown at once when nothing plays, else after
the queue). The game never waits for the LEDs.

>>> from firmware.layout import BoardLayout
>>> board = BoardLayout.standard()
>>> steps = list(walk(board, {"A": (10, 4), "B": (0, 0)}, "A", 14))
>>> len(steps), [e.hole for e in steps[-1][0].pegs() if e.seat == "A"]
(10, [14, 10])
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping

from firmware.layout import SEATS, BoardLayout, seat_track
from firmware.outputs import LedOutput
from firmware.render import DEFAULT_COLOURS, Frame, RenderOptions, render_frame

__all__ = ["FLASHES", "Animator", "flash", "walk", "winner"]

RGB = tuple[int, int, int]
Step = tuple[Frame, float]
Pegs = Mapping[str, tuple[int, int]]

#: event → (colour, times); the colours are sent as given (already LED values).
FLASHES: dict[str, tuple[RGB | None, int]] = {
    "fifteen": ((120, 120, 120), 2),
    "thirty-one": ((120, 120, 120), 3),
    "his-heels": ((160, 90, 0), 2),
    "muggins": ((140, 0, 140), 4),
}


def walk(layout: BoardLayout, pegs: Pegs, seat: str, score: int,
         colours: Mapping[str, RGB] | None = None, options: RenderOptions | None = None,
         step_s: float = 0.04, max_s: float = 1.2) -> Iterator[Step]:
    """The back peg of ``seat`` walks to ``score``; the last step is the board at rest."""
    letter = seat.upper()
    front, _back = pegs[letter]
    if score < front:
        raise ValueError(f"seat {letter}: a new score ({score}) cannot be below {front}")
    layout.hole_for_score(score)  # validates the score
    start = _back_score(pegs[letter])
    holes = list(range(start + 1, score + 1))
    if not holes:
        holes = [score]
    stride = max(1, -(-len(holes) * step_s // max_s)) if max_s > 0 else len(holes)
    chosen = holes[int(stride) - 1 :: int(stride)]
    if chosen[-1] != score:
        chosen.append(score)
    state = dict(pegs)
    for s in chosen:
        state[letter] = (max(s, front), min(s, front))
        yield render_frame(layout, state, colours, options), step_s


def _back_score(pair: tuple[int, int]) -> int:
    return pair[1]


def flash(layout: BoardLayout, pegs: Pegs, seat: str, event: str,
          colours: Mapping[str, RGB] | None = None, options: RenderOptions | None = None,
          on_s: float = 0.15, off_s: float = 0.12) -> Iterator[Step]:
    """Flash the street of ``seat``'s front peg for ``event`` (a key of :data:`FLASHES`)."""
    if event not in FLASHES:
        raise ValueError(f"unknown flash {event!r}: use {', '.join(FLASHES)}")
    colour, times = FLASHES[event]
    letter = seat.upper()
    track = seat_track(letter)
    base = render_frame(layout, pegs, colours, options)
    hole = layout.hole_for_score(pegs[letter][0])
    street = layout.hole(track, hole).street
    if street is None:
        numbers = [hole]
    else:
        first = (street - 1) * 5 + 1
        numbers = list(range(first, first + 5))
    lit = colour or (DEFAULT_COLOURS.get(letter) or DEFAULT_COLOURS[SEATS[track]])
    on = base.copy()
    for n in numbers:
        on.set(layout.hole(track, n).led, lit)
    for _ in range(times):
        yield on, on_s
        yield base, off_s


def winner(layout: BoardLayout, pegs: Pegs, seat: str,
           colours: Mapping[str, RGB] | None = None, options: RenderOptions | None = None,
           step_s: float = 0.02, blinks: int = 3) -> Iterator[Step]:
    """The winner's run to the game hole, the losers' skunk lines, then the final board."""
    letter = seat.upper()
    track = seat_track(letter)
    base = render_frame(layout, pegs, colours, options)
    colour = (colours or {}).get(letter) or DEFAULT_COLOURS[SEATS[track]]
    for n in range(0, layout.game_hole + 1, 2):
        f = base.copy()
        for k in range(max(0, n - 3), n + 1):
            f.set(layout.hole(track, k).led, colour)
        yield f, step_s
    skunk_leds = []
    for other, (front, _back) in pegs.items():
        if other.upper() == letter:
            continue
        t = seat_track(other)
        for line in layout.skunk_lines:
            if front <= line.after:
                skunk_leds += [layout.hole(t, line.hole).led, layout.hole(t, line.hole + 1).led]
    final = base.copy()
    final.set(layout.hole(track, layout.game_hole).led, (200, 140, 0))
    for _ in range(blinks if skunk_leds else 0):
        f = final.copy()
        for i in skunk_leds:
            f.set(i, (200, 0, 0))
        yield f, 0.25
        yield final, 0.2
    yield final, 0.0


class Animator:
    """Plays animations on ``output`` from its own thread; every call returns at once.

    >>> from firmware.outputs.sim import SimOutput
    >>> board = BoardLayout.standard()
    >>> sim = SimOutput(board)
    >>> with Animator(sim) as anim:
    ...     anim.play(walk(board, {"A": (5, 0)}, "A", 9, step_s=0.001))
    ...     anim.wait_idle(2.0)
    True
    >>> [e.hole for e in sim.latest_frame.pegs()]
    [9, 5]
    """

    def __init__(self, output: LedOutput, sleep: Callable[[float], None] | None = None) -> None:
        self.output = output
        self._queue: collections.deque[Iterator[Step]] = collections.deque()
        self._rest: Frame | None = None
        self._rest_dirty = False
        self._cond = threading.Condition()
        self._busy = False
        self._stop = False
        self._cancel = False
        self.errors: list[BaseException] = []
        self._sleep = sleep
        self._thread = threading.Thread(target=self._run, name="led-animator", daemon=True)
        self._thread.start()

    # ----------------------------------------------------------------- public, never blocks
    def play(self, animation: Iterable[Step]) -> None:
        """Queue ``animation`` after those already queued."""
        with self._cond:
            self._queue.append(iter(animation))
            self._cond.notify_all()

    def show(self, frame: Frame) -> None:
        """The board at rest: shown now when idle, else when the queue has played."""
        with self._cond:
            self._rest = frame
            self._rest_dirty = True
            self._cond.notify_all()

    def cancel(self) -> None:
        """Drop queued animations and stop the one playing (e.g. after an undo)."""
        with self._cond:
            self._queue.clear()
            self._cancel = True
            self._cond.notify_all()

    def idle(self) -> bool:
        with self._cond:
            return not self._busy and not self._queue and not self._rest_dirty

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything queued has been shown (for tests and shutdown)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._busy or self._queue or self._rest_dirty:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout=2.0)

    def __enter__(self) -> Animator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- the thread
    def _pause(self, seconds: float) -> None:
        if self._sleep is not None:
            self._sleep(seconds)
            return
        with self._cond:
            self._cond.wait_for(lambda: self._stop or self._cancel, timeout=seconds)

    def _show(self, frame: Frame) -> None:
        try:
            self.output.show(frame)
        except Exception as exc:  # a flaky output must not kill the animator
            self.errors.append(exc)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not (self._stop or self._queue or self._rest_dirty):
                    self._busy = False
                    self._cond.notify_all()
                    self._cond.wait()
                if self._stop:
                    self._busy = False
                    self._cond.notify_all()
                    return
                self._cancel = False
                self._busy = True
                animation = self._queue.popleft() if self._queue else None
                rest = None
                if animation is None:
                    rest, self._rest_dirty = self._rest, False
            if animation is not None:
                try:
                    for frame, seconds in animation:
                        if self._stop or self._cancel:
                            break
                        self._show(frame)
                        if seconds > 0:
                            self._pause(seconds)
                except Exception as exc:  # a broken animation is skipped, not fatal
                    self.errors.append(exc)
                with self._cond:
                    if not self._queue and self._rest is not None:
                        self._rest_dirty = True
            elif rest is not None:
                self._show(rest)
            with self._cond:
                if not self._queue and not self._rest_dirty:
                    self._busy = False
                self._cond.notify_all()
