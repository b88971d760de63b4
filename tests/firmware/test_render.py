"""The peg renderer: seat colours, front bright and back dim, gamma, markers, the power cap."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.layout import BoardLayout
from firmware.render import DEFAULT_COLOURS, RenderOptions, estimate_current_ma, gamma_table, render_frame

BOARD2 = BoardLayout.standard(tracks=2)
BOARD3 = BoardLayout.standard(tracks=3)
NO_MARKS = RenderOptions(markers=False, skunk_marks=False)


def test_front_bright_back_dim_in_the_seat_colour() -> None:
    frame = render_frame(BOARD2, {"A": (45, 40), "B": (30, 28)}, options=NO_MARKS)
    table = gamma_table(2.2)
    for seat, (front, back), track in (("A", (45, 40), 0), ("B", (30, 28), 1)):
        colour = DEFAULT_COLOURS[seat]
        f = frame.rgb(BOARD2.hole(track, front).led)
        b = frame.rgb(BOARD2.hole(track, back).led)
        assert f == tuple(round(table[c] * 255) or (1 if c else 0) for c in colour)
        # the back peg is the same colour at back_level of the light (within rounding)
        for fc, bc, c in zip(f, b, colour, strict=True):
            assert bc <= fc
            assert bc == pytest.approx(max(1, round(table[c] * 0.22 * 255)) if c else 0, abs=1)
        assert sum(b) < sum(f) / 3
    # exactly four LEDs lit, nothing else
    assert sum(1 for i in range(frame.leds) if any(frame.rgb(i))) == 4
    assert [(e.seat, e.peg, e.hole, e.score) for e in frame.pegs()] == [
        ("A", "front", 45, 45), ("A", "back", 40, 40), ("B", "front", 30, 30), ("B", "back", 28, 28)]


def test_gamma_is_applied_to_the_colour() -> None:
    lin = render_frame(BOARD2, {"A": (5, 0)}, {"A": (128, 64, 255)},
                       RenderOptions(gamma=1.0, markers=False, skunk_marks=False))
    curved = render_frame(BOARD2, {"A": (5, 0)}, {"A": (128, 64, 255)}, NO_MARKS)
    led = BOARD2.hole(0, 5).led
    assert lin.rgb(led) == (128, 64, 255)
    assert curved.rgb(led) == (56, 12, 255)  # 255 * (128/255) ** 2.2 = 55.9, (64/255) ** 2.2 -> 12
    assert gamma_table(2.2)[255] == 1.0 and gamma_table(2.2)[0] == 0.0


def test_start_game_and_skunk_markers() -> None:
    frame = render_frame(BOARD2, {"A": (45, 40), "B": (30, 28)})
    marks = {(e.track, e.hole, e.mark) for e in frame.lit if e.peg is None}
    assert marks == {(t, h, m) for t in (0, 1) for h, m in ((0, "start"), (121, "game"),
                                                           (61, "skunk"), (91, "skunk"))}
    for e in frame.lit:
        if e.peg is None:
            assert e.seat is None and max(e.rgb) < 20  # faint
    # a peg in the start hole hides the start marker there (listed once, as the peg)
    start = render_frame(BOARD2, {"A": (0, 0), "B": (121, 100)})
    at_start = [e for e in start.lit if e.track == 0 and e.hole == 0]
    assert len(at_start) == 1 and at_start[0].peg == "front"
    winner = [e for e in start.lit if e.track == 1 and e.hole == 121]
    assert len(winner) == 1 and winner[0].peg == "front"
    # both pegs in one hole show one front peg
    assert [(e.peg, e.hole) for e in start.pegs() if e.seat == "A"] == [("front", 0)]


def test_street_marks_are_optional() -> None:
    plain = render_frame(BOARD2, {"A": (1, 0)})
    marked = render_frame(BOARD2, {"A": (1, 0)}, options=RenderOptions(street_marks=True))
    assert not [e for e in plain.lit if e.mark == "street"]
    streets = {(e.track, e.hole) for e in marked.lit if e.mark == "street"}
    assert (1, 6) in streets and (0, 116) in streets and (0, 1) not in streets  # A's peg is on 1


def test_partners_share_a_track() -> None:
    """Four players in two partnerships peg two tracks (seat letter = team); six, three."""
    frame = render_frame(BOARD2, {"A": (31, 20), "B": (12, 7)})
    assert {e.track for e in frame.pegs()} == {0, 1}
    frame3 = render_frame(BOARD3, {"A": (5, 0), "B": (9, 4), "C": (20, 15)})
    assert sorted((e.seat, e.track, e.hole) for e in frame3.pegs()) == [
        ("A", 0, 0), ("A", 0, 5), ("B", 1, 4), ("B", 1, 9), ("C", 2, 15), ("C", 2, 20)]
    with pytest.raises(ValueError, match="no track"):
        render_frame(BOARD2, {"C": (5, 0)})


def test_power_cap_keeps_the_estimate_under_the_supply() -> None:
    pegs = {"A": (45, 40), "B": (30, 28), "C": (100, 90)}
    free = render_frame(BOARD3, pegs, options=RenderOptions(street_marks=True))
    assert free.scale == 1.0
    for supply in (380, 400, 450, 500, 600, free.current_ma - 1):
        frame = render_frame(BOARD3, pegs, options=RenderOptions(street_marks=True, supply_ma=supply))
        assert frame.current_ma <= supply
        assert frame.current_ma == pytest.approx(estimate_current_ma(frame.pixels, RenderOptions()))
        assert 0 < frame.scale < 1
        assert any(frame.pixels)  # still showing the pegs
    with pytest.raises(ValueError, match="cannot even run"):
        render_frame(BOARD3, pegs, options=RenderOptions(supply_ma=300))  # 366 mA idle


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 121), st.integers(0, 121), st.integers(0, 121), st.integers(0, 121),
       st.floats(400, 3000), st.floats(0.05, 1.0))
def test_power_cap_property(a: int, b: int, c: int, d: int, supply: float, brightness: float) -> None:
    pegs = {"A": (max(a, b), min(a, b)), "B": (max(c, d), min(c, d))}
    frame = render_frame(BOARD3, pegs, options=RenderOptions(supply_ma=supply, brightness=brightness))
    assert frame.current_ma <= supply + 1e-9
    assert len(list(frame.pegs())) == (1 if a == b else 2) + (1 if c == d else 2)


def test_current_estimate_of_a_white_strip() -> None:
    white = bytes([255]) * (3 * 100)
    assert estimate_current_ma(white, RenderOptions()) == 100 * 60 + 100  # 60 mA a LED + idle


@pytest.mark.parametrize(("pegs", "message"), [
    ({"A": (122, 0)}, "over"), ({"A": (5, -1)}, "negative"), ({"A": (5, 9)}, "ahead"),
    ({"C": (5, 0)}, "no track"), ({"D": (5, 0)}, "unknown seat")])
def test_bad_pegs_are_refused(pegs: dict[str, tuple[int, int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_frame(BOARD2, pegs)


def test_two_lap_board_and_61_point_game() -> None:
    short = BoardLayout.standard(tracks=2, laps=2)
    frame = render_frame(short, {"A": (75, 61), "B": (121, 110)}, options=NO_MARKS)
    assert [(e.seat, e.peg, e.hole) for e in frame.pegs()] == [
        ("A", "front", 15), ("A", "back", 1), ("B", "front", 61), ("B", "back", 50)]


# --- _fit: the power cap itself (render_frame's one way to quantise a frame) ---------------

def test_fit_leaves_a_frame_within_the_supply_as_it_is() -> None:
    from firmware.render import _fit

    pixels, scale = _fit({0: (1.0, 1.0, 1.0), 3: (0.5, 0.0, 0.0)}, 4, RenderOptions())
    assert scale == 1.0
    assert list(pixels[:3]) == [255, 255, 255] and pixels[9] == 128
    assert _fit({}, 5, RenderOptions(supply_ma=6.0)) == (bytearray(15), 1.0)  # nothing lit


@pytest.mark.parametrize("supply", [10.0, 20.0, 40.0, 61.0, 120.0])
def test_fit_shrinks_a_frame_over_the_supply_until_the_bytes_sent_fit(supply: float) -> None:
    from firmware.render import _fit

    light = {i: (1.0, 0.4, 0.05) for i in range(0, 8, 2)}
    options = RenderOptions(supply_ma=supply)
    pixels, scale = _fit(light, 8, options)
    assert estimate_current_ma(pixels, options) <= supply
    assert 0 < scale < 1
    assert all(pixels[3 * i] > 0 for i in light)  # every lit LED still shows
    assert not any(pixels[3 * i + c] for i in range(1, 8, 2) for c in range(3))  # dark ones stay dark


def test_fit_goes_dark_when_even_the_faintest_light_is_over_the_supply() -> None:
    from firmware.render import _fit

    light = {i: (1e-6, 0.0, 0.0) for i in range(100)}  # each rounds to the floor of 1
    pixels, scale = _fit(light, 100, RenderOptions(supply_ma=105.0))  # 100 mA idle + 7.8 mA of 1s
    assert (pixels, scale) == (bytearray(300), 0.0)


def test_fit_applies_the_brightness() -> None:
    from firmware.render import _fit

    pixels, scale = _fit({0: (1.0, 0.0, 0.0)}, 1, RenderOptions(brightness=0.5))
    assert (pixels[0], scale) == (128, 1.0)


def test_the_renderer_defines_each_function_once() -> None:
    """A second ``def`` of one name silently replaces the first (``_fit`` was once defined twice)."""
    import ast
    import inspect

    import firmware.render

    tree = ast.parse(inspect.getsource(firmware.render))
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
