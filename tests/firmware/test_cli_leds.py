"""``crib leds render`` and ``crib leds test``: the command-line contract the acceptance checks use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from firmware.layout import BoardLayout


def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse's own errors (a value outside the choices)
        status = int(exc.code or 0)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_render_prints_the_lit_pegs(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    png = tmp_path / "board.png"
    status, out, err = run(capsys, "leds", "render", "--scores", "45,30", "--prev", "40,28",
                           "--json", "--png", str(png))
    assert status == 0 and err == ""
    data = json.loads(out)
    board = BoardLayout.standard(tracks=2)
    assert data["leds"] == board.led_count == 244
    pegs = [e for e in data["lit"] if e["peg"] is not None]
    assert [(e["seat"], e["peg"], e["hole"]) for e in pegs] == [
        ("A", "front", 45), ("A", "back", 40), ("B", "front", 30), ("B", "back", 28)]
    for e in pegs:
        assert e["index"] == board.hole("AB".index(e["seat"]), e["hole"]).led
        assert len(e["rgb"]) == 3 and all(0 <= c <= 255 for c in e["rgb"])
    a_front, a_back = pegs[0]["rgb"], pegs[1]["rgb"]
    assert a_front[0] > a_front[1] and sum(a_back) < sum(a_front)  # seat A red; back dim
    assert all(e["seat"] is None for e in data["lit"] if e["peg"] is None)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_three_tracks_and_default_prev(capsys: pytest.CaptureFixture) -> None:
    status, out, _ = run(capsys, "leds", "render", "--scores", "5,0,121", "--tracks", "3")
    data = json.loads(out)
    assert status == 0 and data["leds"] == 366
    pegs = [(e["seat"], e["peg"], e["hole"]) for e in data["lit"] if e["peg"]]
    assert pegs == [("A", "front", 5), ("A", "back", 0), ("B", "front", 0), ("C", "front", 121),
                    ("C", "back", 0)]
    status, out, _ = run(capsys, "leds", "render", "--scores", "45,30", "--text")
    assert status == 0 and "A front" in out


@pytest.mark.parametrize("argv", [
    ["--scores", "45,130"],  # over the target
    ["--scores", "45,62", "--target", "61"],
    ["--scores", "45"],  # wrong count
    ["--scores", "1,2,3,4"],
    ["--scores", "45,30,2", "--tracks", "2"],
    ["--scores", "45,30", "--prev", "1"],
    ["--scores=-1,3"],  # negative
    ["--scores", "45,30", "--prev=-2,0"],
    ["--scores", "a,b"],  # not numbers
    ["--scores", "4.5,3"],
    ["--scores", ""],
    ["--scores", "45,30", "--prev", "50,2"],  # back ahead of front
    ["--scores", "45,30", "--brightness", "2"],
    ["--scores", "45,30", "--brightness", "nan"],
    ["--scores", "45,30", "--supply-ma", "100"],
    ["--scores", "45,30", "--supply-ma", "nan"],
    ["--scores", "45,30", "--tracks", "4"],
])
def test_render_bad_values_are_one_line_and_status_2(capsys: pytest.CaptureFixture, argv: list[str]) -> None:
    status, out, err = run(capsys, "leds", "render", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_installed_command_exits_2_on_bad_values() -> None:
    run_ = subprocess.run([sys.executable, "-m", "companion.cli", "leds", "render", "--scores", "x,1"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert run_.returncode == 2 and run_.stdout == "" and len(run_.stderr.splitlines()) == 1


def test_selftest_on_the_simulator(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    png = tmp_path / "test.png"
    status, out, err = run(capsys, "leds", "test", "--output", "sim", "--tracks", "2", "--json",
                           "--png", str(png))
    assert status == 0 and err == ""
    data = json.loads(out)
    # 3 colour fills + 2 tracks + a dot on each of the 244 LEDs + white + dark
    assert data["output"] == "sim" and data["frames"] == 3 + 2 + 244 + 2 and data["ok"]
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("spec", ["pico:/dev/ttyACM0", "spi-apa102", "spi-ws2812", "lamp", "pico"])
def test_selftest_without_the_hardware_is_one_line(capsys: pytest.CaptureFixture, spec: str) -> None:
    status, out, err = run(capsys, "leds", "test", "--output", spec)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("crib leds: ")
