"""Animations: what they light, and an animator that never holds up the caller."""

from __future__ import annotations

import threading
import time

import pytest

from firmware.animations import FLASHES, Animator, flash, walk, winner
from firmware.layout import BoardLayout
from firmware.outputs import LedOutput
from firmware.render import Frame, render_frame

BOARD = BoardLayout.standard(tracks=2)


class Recorder(LedOutput):
    """An output that records frames; ``gate`` lets a test make it slow."""

    def __init__(self, leds: int, gate: threading.Event | None = None) -> None:
        super().__init__(leds)
        self.frames: list[Frame] = []
        self.gate = gate

    def show(self, frame: Frame) -> None:
        if self.gate is not None:
            self.gate.wait(5)
        self.frames.append(frame)


def peg_holes(frame: Frame, seat: str) -> list[int]:
    return sorted(e.hole for e in frame.pegs() if e.seat == seat)


def test_walk_leapfrogs_the_back_peg_to_the_new_score() -> None:
    steps = list(walk(BOARD, {"A": (10, 4), "B": (7, 3)}, "A", 16, step_s=0.01))
    assert [peg_holes(f, "A") for f, _ in steps][:3] == [[5, 10], [6, 10], [7, 10]]
    assert peg_holes(steps[-1][0], "A") == [10, 16]
    assert all(peg_holes(f, "B") == [3, 7] for f, _ in steps)
    final = render_frame(BOARD, {"A": (16, 10), "B": (7, 3)})
    assert steps[-1][0].pixels == final.pixels  # ends on the board at rest


def test_a_long_walk_is_capped_in_time() -> None:
    steps = list(walk(BOARD, {"A": (30, 2)}, "A", 59, step_s=0.04, max_s=0.4))
    assert sum(s for _, s in steps) <= 0.4 + 0.04 + 1e-9
    assert peg_holes(steps[-1][0], "A") == [30, 59]
    with pytest.raises(ValueError):
        list(walk(BOARD, {"A": (30, 2)}, "A", 20))


@pytest.mark.parametrize("event", list(FLASHES))
def test_flash_lights_the_street_of_the_front_peg(event: str) -> None:
    pegs = {"A": (17, 12), "B": (3, 0)}
    base = render_frame(BOARD, pegs)
    steps = list(flash(BOARD, pegs, "A", event))
    colour, times = FLASHES[event]
    assert len(steps) == 2 * times
    on, off = steps[0][0], steps[1][0]
    street = [BOARD.hole(0, n).led for n in range(16, 21)]  # hole 17 is in street 4: 16..20
    assert all(on.rgb(i) == colour for i in street)
    assert off.pixels == base.pixels
    with pytest.raises(ValueError):
        list(flash(BOARD, pegs, "A", "nineteen"))


def test_winner_runs_home_and_shows_the_skunk() -> None:
    pegs = {"A": (121, 115), "B": (80, 70)}  # B below 91: skunked, not double
    steps = list(winner(BOARD, pegs, "A"))
    final = steps[-1][0]
    assert final.rgb(BOARD.hole(0, 121).led) == (200, 140, 0)
    red = [f for f, _ in steps if f.rgb(BOARD.hole(1, 91).led) == (200, 0, 0)]
    assert len(red) == 3  # the line at 90 blinks on B's track
    assert not [f for f, _ in steps if f.rgb(BOARD.hole(1, 61).led) == (200, 0, 0)]
    clean = list(winner(BOARD, {"A": (121, 118), "B": (100, 95)}, "A"))
    assert not [f for f, _ in clean if f.rgb(BOARD.hole(1, 91).led) == (200, 0, 0)]


def test_animator_returns_at_once_and_plays_in_order() -> None:
    gate = threading.Event()
    out = Recorder(BOARD.led_count, gate)
    with Animator(out) as anim:
        pegs = {"A": (10, 4), "B": (7, 3)}
        start = time.perf_counter()
        anim.play(walk(BOARD, pegs, "A", 16, step_s=0.001))
        anim.play(flash(BOARD, {"A": (16, 10), "B": (7, 3)}, "A", "fifteen", on_s=0.001,
                        off_s=0.001))
        rest = render_frame(BOARD, {"A": (16, 10), "B": (7, 3)})
        anim.show(rest)
        assert time.perf_counter() - start < 0.05  # the output is stuck, the caller is not
        assert not anim.idle()
        gate.set()
        assert anim.wait_idle(5)
    assert len(out.frames) == 12 + 4 + 1
    assert out.frames[-1].pixels == rest.pixels


def test_cancel_drops_what_is_queued_and_the_rest_frame_shows() -> None:
    out = Recorder(BOARD.led_count)
    with Animator(out) as anim:
        anim.play(walk(BOARD, {"A": (60, 0)}, "A", 120, step_s=0.2, max_s=100))
        time.sleep(0.05)
        anim.cancel()
        rest = render_frame(BOARD, {"A": (0, 0)})
        anim.show(rest)
        assert anim.wait_idle(5)
    assert len(out.frames) < 10 and out.frames[-1].pixels == rest.pixels


def test_a_failing_output_does_not_stop_the_animator() -> None:
    class Broken(Recorder):
        def show(self, frame: Frame) -> None:
            raise OSError("unplugged")

    out = Broken(BOARD.led_count)
    with Animator(out) as anim:
        anim.show(render_frame(BOARD, {"A": (1, 0)}))
        assert anim.wait_idle(5)
        assert isinstance(anim.errors[0], OSError)
