"""``crib leds render`` and ``crib leds test``: the command-line contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from firmware.layout import BoardLayout


def render(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, dict | None, str]:
    status = main(["leds", "render", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == 0 else None), err


def test_render_prints_the_lit_pegs(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    png = tmp_path / "board.png"
    status, data, _ = render(capsys, "--scores", "45,30", "--prev", "40,28", "--json",
                             "--png", str(png))
    assert status == 0 and data is not None
    board = BoardLayout.standard(tracks=2)
    assert data["leds"] == board.led_count == 244
    pegs = [e for e in data["lit"] if e["peg"] is not None]
    assert [(e["seat"], e["peg"], e["hole"]) for e in pegs] == [
        ("A", "front", 45), ("A", "back", 40), ("B", "front", 30), ("B", "back", 28)]
    for e in pegs:
        assert e["index"] == board.hole("AB".index(e["seat"]), e["hole"]).led
        assert len(e["rgb"]) == 3 and max(e["rgb"]) > 0
    front_a, back_a = pegs[0]["rgb"], pegs[1]["rgb"]
    assert sum(back_a) < sum(front_a)
    markers = [e for e in data["lit"] if e["peg"] is None]
    assert markers and all(e["seat"] is None for e in markers)
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_render_three_tracks_and_a_short_board(capsys: pytest.CaptureFixture) -> None:
    status, data, _ = render(capsys, "--scores", "121,90,59", "--prev", "115,80,50")
    assert status == 0 and data is not None and data["leds"] == 366
    status, data, _ = render(capsys, "--scores", "75,61", "--laps", "2")
    assert status == 0 and data is not None
    assert {(e["seat"], e["hole"]) for e in data["lit"] if e["peg"] == "front"} == {
        ("A", 15), ("B", 1)}


@pytest.mark.parametrize("args", [
    ["--scores", "45,130"],  # over the target
    ["--scores", "45"],  # too few
    ["--scores", "45,30,20", "--tracks", "2"],  # too many for the board
    ["--scores=-1,30"],  # negative
    ["--scores", "45,x"],
    ["--scores", "45,30", "--prev", "50,20"],  # back peg ahead
    ["--scores", "45,30", "--prev", "40"],
    ["--scores", "61,30", "--target", "61", "--prev", "62,0"],
    ["--scores", "45,30", "--png", "/no/such/dir/x.png"],
    ["--scores", "45,30", "--brightness", "nan"],
    ["--scores", "45,30", "--supply-ma", "nan"],
    ["--scores", "45,30", "--supply-ma", "inf"],
])
def test_render_bad_values_are_one_line_and_status_2(capsys: pytest.CaptureFixture,
                                                     args: list[str]) -> None:
    status, _, err = render(capsys, *args)
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err


def test_leds_test_runs_on_the_simulator(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    png = tmp_path / "selftest.png"
    assert main(["leds", "test", "--output", "sim", "--json", "--png", str(png)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["output"] == "sim" and summary["frames"] > 366
    assert png.is_file()


@pytest.mark.parametrize("spec", ["pico:/dev/ttyACM0", "spi-apa102", "spi-ws2812", "neon"])
def test_leds_test_without_hardware_is_one_line(spec: str) -> None:
    run = subprocess.run([sys.executable, "-m", "companion.cli", "leds", "test", "--output", spec],
                         capture_output=True, text=True, timeout=60, check=False)
    if spec == "pico:/dev/ttyACM0" and Path("/dev/ttyACM0").exists():  # pragma: no cover
        pytest.skip("a serial device is attached here")
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
