"""The board's LEDs in ``crib serve``: the layouts, the output, the animations, drawn on a thread.

:class:`BoardLeds` is handed each new state of the newest game and lights the pegs on the output
``crib serve --leds`` names (:func:`firmware.outputs.open_output`). States are drawn on a worker
thread (:class:`LedWorker`) that keeps only the newest one, so a slow strip never holds up a
request. A real strip walks the pegs that moved and flashes a fifteen, thirty-one, his heels or
muggins (:mod:`firmware.animations`); the page's simulated strip shows each rest.

>>> leds = BoardLeds("sim")
>>> leds.show({"game": 1, "events": 2, "target": 121, "sides": [{"id": "A"}, {"id": "B"}],
...            "pegs": {"A": [2, 0], "B": [0, 0]}})
>>> leds.wait(), leds.name, leds.latest_png()[:4]
(True, 'sim', b'\\x89PNG')
>>> leds.close()
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from firmware.animations import Animator
    from firmware.layout import BoardLayout
    from firmware.outputs import LedOutput

log = logging.getLogger("companion")

State = dict[str, Any]
"""A game's state as the store gives it (:meth:`cribbage.game.game.Game.to_json`)."""
Pegs = dict[str, tuple[int, int]]
"""Front and back peg by track letter."""
Colours = dict[str, tuple[int, int, int]]
"""RGB by track letter."""

OFF = ("none", "off", "")
"""The ``--leds`` specs that drive no LEDs."""


def pegs_of(state: State) -> Pegs:
    """The pegs the LEDs show, by track letter: side ``k`` of the game pegs on track ``k``.

    >>> pegs_of({"sides": [{"id": "AC"}, {"id": "BD"}], "pegs": {"AC": [12, 7], "BD": [3, 0]}})
    {'A': (12, 7), 'B': (3, 0)}
    """
    pegs = state.get("pegs") or {}
    out: Pegs = {}
    for k, side in enumerate(state.get("sides") or []):
        front, back = pegs.get(side["id"], (0, 0))
        out["ABC"[k]] = (int(front), int(back))
    return out


def colours_of(state: State) -> Colours:
    """Each track's peg colour as RGB, from the sides' ``#rrggbb`` colours (others skipped).

    >>> colours_of({"sides": [{"id": "A", "colour": "#d62728"}, {"id": "B", "colour": "red"}]})
    {'A': (214, 39, 40)}
    """
    out: Colours = {}
    for k, side in enumerate(state.get("sides") or []):
        colour = str(side.get("colour") or "")
        if len(colour) == 7 and colour.startswith("#"):
            try:
                out["ABC"[k]] = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
            except ValueError:
                continue
    return out


class LedWorker:
    """Draws LED frames on its own thread; only the newest pending state is drawn.

    ``draw(state)`` is called on the worker thread; an error in it is logged and the next state
    is drawn as usual.
    """

    def __init__(self, draw: Callable[[State], None]) -> None:
        self.draw = draw
        self._cond = threading.Condition()
        self._pending: State | None = None
        self._busy = False
        self._stop = False
        self.frames = 0
        self._thread = threading.Thread(target=self._run, name="leds", daemon=True)
        self._thread.start()

    def submit(self, state: State) -> None:
        with self._cond:
            self._pending = state
            self._cond.notify_all()

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every submitted state is drawn (for tests and the benchmark)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending is not None or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._stop:
                    self._cond.wait()
                if self._stop:
                    return
                state, self._pending = self._pending, None
                self._busy = True
            try:
                self.draw(state)
                self.frames += 1
            except Exception:  # a strip error must not stop the table
                log.exception("LED output failed; the game goes on")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout=2)


class Lit(NamedTuple):
    """What the LEDs last showed: the animations start from it."""

    game: int
    layout: BoardLayout
    pegs: Pegs
    events: int


class BoardLeds:
    """The LEDs of the board: the output ``spec`` names, fed the newest game's states.

    ``spec`` is an output spec (``sim``, ``pico:/dev/ttyACM0``, ``spi-apa102``, ``none``; see
    :func:`firmware.outputs.open_output`); with ``none`` nothing is drawn, but :meth:`layout`
    still answers. ``board_tracks`` fixes the physical board's tracks; left ``None`` (the
    simulator) the board follows the game, 2 or 3 tracks. ``animate`` (default: any output but
    ``sim``) walks and flashes the pegs. ``on_frame(n)`` is called on the worker thread after
    the ``n``-th frame is drawn.
    """

    def __init__(self, spec: str = "none", *, board_tracks: int | None = None, board_laps: int = 1,
                 animate: bool | None = None, on_frame: Callable[[int], None] | None = None) -> None:
        self.spec = spec
        self.board_tracks = board_tracks
        self.board_laps = board_laps
        self.animate = (spec != "sim") if animate is None else animate
        self.on_frame = on_frame
        self.output: LedOutput | None = None
        self.output_layout: BoardLayout | None = None
        self._animator: Animator | None = None
        self._lit: Lit | None = None
        self._layouts: dict[tuple[int, int], BoardLayout] = {}
        self._lock = threading.Lock()
        self.worker: LedWorker | None = None
        if spec not in OFF:
            if board_tracks is not None or spec != "sim":
                # a real strip is opened now so a wrong port fails at start, not mid-game
                self._open_output(self.layout(board_tracks or 2, 121))
            self.worker = LedWorker(self.draw)

    @property
    def enabled(self) -> bool:
        """True when states are drawn (the spec is not ``none``)."""
        return self.worker is not None

    @property
    def name(self) -> str:
        """The output's kind for the page's status: ``sim``, ``pico``, ``spi-apa102``, ``none``."""
        return self.spec.partition(":")[0] if self.enabled else "none"

    def layout(self, tracks: int, target: int) -> BoardLayout:
        """The board layout (cached): the physical board's when it is fixed."""
        from firmware.layout import BoardLayout

        tracks = self.board_tracks or tracks
        key = (tracks, target)
        with self._lock:
            if key not in self._layouts:
                self._layouts[key] = BoardLayout.standard(
                    tracks=tracks, laps=self.board_laps, target=target
                )
            return self._layouts[key]

    def show(self, state: State) -> None:
        """Queue ``state`` to be drawn (a newer one replaces it if it is not drawn yet)."""
        if self.worker is not None:
            self.worker.submit(state)

    def wait(self, timeout: float = 5.0) -> bool:
        """Wait until the LEDs show the latest state, animations played (tests, benchmark)."""
        done = self.worker.wait_idle(timeout) if self.worker is not None else True
        if done and self._animator is not None:
            done = self._animator.wait_idle(timeout)
        return done

    def latest_png(self) -> bytes | None:
        """The frame last drawn as PNG, when the output is the simulator; else ``None``."""
        latest = getattr(self.output, "latest_png", None)
        return latest() if callable(latest) else None

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
        if self._animator is not None:
            self._animator.close()
        if self.output is not None:
            self.output.close()

    def draw(self, state: State) -> None:
        """Light ``state``'s pegs now (the worker thread calls this)."""
        from firmware.render import render_frame

        sides = state.get("sides") or []
        layout = self.layout(3 if len(sides) == 3 else 2, int(state.get("target") or 121))
        if self.output is None or self.output_layout is None or (
            self.spec == "sim" and self.output_layout is not layout
        ):
            output, layout = self._open_output(layout)
        else:
            output, layout = self.output, self.output_layout
        pegs, colours = pegs_of(state), colours_of(state)
        frame = render_frame(layout, pegs, colours)
        if self._animator is not None:
            self._animate(state, layout, pegs, colours)
            self._animator.show(frame)
        else:
            output.show(frame)
        self._lit = Lit(int(state.get("game") or 0), layout, pegs, int(state.get("events") or 0))
        if self.on_frame is not None:
            self.on_frame(self.worker.frames + 1 if self.worker else 0)

    def _open_output(self, layout: BoardLayout) -> tuple[LedOutput, BoardLayout]:
        from firmware.outputs import open_output

        if self._animator is not None:
            self._animator.close()
            self._animator = None
        if self.output is not None:
            self.output.close()
        self.output = output = open_output(self.spec, layout)
        self.output_layout = layout
        self._lit = None
        if self.animate:
            from firmware.animations import Animator

            self._animator = Animator(output)
        return output, layout

    def _animate(self, state: State, layout: BoardLayout, pegs: Pegs, colours: Colours) -> None:
        """Walk the pegs that moved forward, flash a fifteen, thirty-one, heels or muggins, run
        the winner's lap; an undo or a correction that moves a peg back just cancels."""
        from firmware.animations import flash, walk, winner

        animator, last = self._animator, self._lit
        if animator is None or last is None or last.game != int(state.get("game") or 0) \
                or last.layout is not layout:
            return
        if state.get("events", 0) <= last.events:
            return
        if any(pegs[k][0] < last.pegs.get(k, (0, 0))[0] for k in pegs):
            animator.cancel()  # a correction or undo: no walk backwards
            return
        moving = dict(last.pegs)
        for letter, (front, _back) in pegs.items():
            if front > moving.get(letter, (0, 0))[0]:
                animator.play(walk(layout, moving, letter, front, colours))
                moving[letter] = pegs[letter]
        tracks = {side["id"]: "ABC"[k] for k, side in enumerate(state.get("sides") or [])}
        names = {"fifteen": "fifteen", "thirty-one": "thirty-one", "heels": "his-heels",
                 "muggins": "muggins"}
        for award in state.get("last") or []:
            if state.get("last_event") == state.get("events") and award.get("kind") in names:
                letter = tracks.get(award.get("side"))
                if letter is not None:
                    animator.play(flash(layout, pegs, letter, names[award["kind"]], colours))
        if state.get("winner") in tracks:
            animator.play(winner(layout, pegs, tracks[state["winner"]], colours))
