"""``crib serve`` and the companion behind it: real waitress in a subprocess, the demo, errors."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browserkit import start_server

from companion.cli import main
from companion.demo import DemoDealer
from companion.service import Companion, ServeConfig, on_raspberry_pi
from cribbage.errors import RuleError

CRIB = [sys.executable, "-m", "companion.cli"]


def start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    """``crib serve`` in a subprocess with its log (stderr) kept for the test to read."""
    return start_server(tmp_path / "data", *args, stderr=subprocess.PIPE)


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    proc, url = start(tmp_path, "--demo", "--demo-step", "0.1", "--leds", "sim")
    yield proc, url
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)


def test_serve_runs_waitress_plays_the_demo_and_stops_on_sigterm(
    served: tuple[subprocess.Popen[str], str], tmp_path: Path
) -> None:
    proc, url = served
    session = get(url + "api/session")
    assert session["companion"] == {"leds": "sim", "demo": True, "camera": False}
    deadline = time.monotonic() + 20
    state: dict = {}
    while time.monotonic() < deadline:
        state = get(url + "api/games/latest")["state"]
        if state["events"] >= 6:
            break
        time.sleep(0.2)
    assert state["events"] >= 6 and state["dealer"] == "B"
    with urllib.request.urlopen(url + "api/leds.png", timeout=10) as response:
        assert response.read()[:4] == b"\x89PNG"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.headers["Server"] == "cribbage-companion"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(15) == 0
    err = proc.stderr.read()  # type: ignore[union-attr]
    assert "GET /api/session 200" in err  # the access log goes to stderr
    assert (tmp_path / "data" / "games.sqlite3").exists()


def test_the_demo_deals_first_as_dealer_says(tmp_path: Path) -> None:
    """``crib serve --demo --dealer a``: the demo's game has Ann (seat A) dealing first, not Bob."""
    proc, url = start(tmp_path, "--demo", "--demo-step", "0.05", "--leds", "none", "--dealer", "a")
    try:
        deadline = time.monotonic() + 20
        state: dict = {}
        while time.monotonic() < deadline and not state.get("dealer"):
            state = get(url + "api/games/latest")["state"]
            time.sleep(0.1)
        assert state["dealer"] == "A" and state["deal"] == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)


def test_a_busy_port_is_one_line_and_status_2(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        done = subprocess.run(
            [*CRIB, "serve", "--port", str(port), "--data", str(tmp_path), "--leds", "none"],
            capture_output=True, text=True, timeout=60,
        )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "cannot listen" in done.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--port", "70000"], "--port"),
        (["serve", "--pin", "12ab"], "--pin"),
        (["serve", "--max-live", "0"], "--max-live"),
        (["serve", "--threads", "1"], "--threads"),
        (["serve", "--demo-step", "-1"], "--demo-step"),
        (["serve", "--demo", "--dealer", "C"], "--dealer is A or B"),  # the demo's two players
        (["serve", "--demo", "--dealer", ""], "--dealer is A or B"),
        (["serve", "--dealer", "A"], "--dealer is for the game crib serve starts"),  # none starts
    ],
)
def test_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_an_unknown_led_output_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--data", str(tmp_path), "--leds", "lamp", "--port", "0"]) == 2
    assert "unknown LED output" in capsys.readouterr().err


def test_the_pi_is_detected_by_its_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    assert on_raspberry_pi(model)
    model.write_bytes(b"Some Other Board\x00")
    assert not on_raspberry_pi(model)
    assert not on_raspberry_pi(tmp_path / "missing")


def test_serve_config_defaults(tmp_path: Path) -> None:
    from companion.cli import build_parser

    args = build_parser().parse_args(["serve", "--data", str(tmp_path)])
    config = ServeConfig.from_args(args)
    expected = "0.0.0.0" if on_raspberry_pi() else "127.0.0.1"
    assert (config.host, config.port, config.leds) == (expected, 8121, "sim")
    assert config.server_threads == config.max_live + 8
    default = ServeConfig.from_args(build_parser().parse_args(["serve"]))
    assert default.data_dir.name == "cribbage-companion"
    demo = ServeConfig.from_args(build_parser().parse_args(["serve", "--demo"]))
    assert demo.data_dir == default.data_dir / "demo" and demo.demo


def test_listeners_hear_every_change(tmp_path: Path) -> None:
    companion = Companion.build(ServeConfig(data_dir=tmp_path, leds="none"))
    heard: list[tuple[str, object]] = []
    companion.add_listener(lambda topic, data: heard.append((topic, data.get("game_id"))))
    game = companion.new_game({"players": ["Ann", "Bob"]})
    companion.apply(game, {"type": "dealer", "seat": "A"})
    with pytest.raises(RuleError, match=r"phase"):
        companion.apply(game, {"type": "play", "seat": "A", "card": "5H"})
    assert heard == [("games", None), ("state", game), ("state", game)]
    companion.close()


def test_the_demo_stops_when_a_real_game_starts(tmp_path: Path) -> None:
    companion = Companion.build(ServeConfig(data_dir=tmp_path, leds="none"))
    demo = DemoDealer(companion, step_s=0.02)
    demo_game = demo.start()
    time.sleep(0.3)
    companion.new_game({"players": ["Ann", "Bob"]})
    time.sleep(0.2)
    frozen = companion.state(demo_game)["events"]
    time.sleep(0.3)
    assert companion.state(demo_game)["events"] == frozen > 1
    demo.stop()
    companion.close()


def test_a_restart_puts_the_pegs_back_on_the_leds(tmp_path: Path) -> None:
    first = Companion.build(ServeConfig(data_dir=tmp_path, leds="none"))
    game = first.new_game({"players": ["Ann", "Bob"]})
    first.apply(game, {"type": "dealer", "seat": "A"})
    first.apply(game, {"type": "starter", "card": "JS"})  # heels: Ann pegs 2
    first.close()
    again = Companion.build(ServeConfig(data_dir=tmp_path, leds="sim"))
    assert again.wait_leds()
    lit = {(e.seat, e.peg): e.hole for e in again.leds.output.latest_frame.pegs()}
    assert lit[("A", "front")] == 2
    again.close()


def test_a_strip_walks_the_peg_and_flashes_then_rests(tmp_path: Path) -> None:
    from cribbage.gamelog import GameStore

    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="sim", animate=True)
    game = companion.new_game({"players": ["Ann", "Bob"]})
    companion.apply(game, {"type": "dealer", "seat": "A"})
    assert companion.wait_leds()
    shown = companion.leds.output.frames_shown
    companion.apply(game, {"type": "starter", "card": "JS"})  # his heels: Ann pegs 2
    assert companion.wait_leds()
    frames = companion.leds.output.frames_shown - shown
    assert frames >= 2 + 2 * 2 + 1  # the walk (2 holes), the heels flash (twice on, off), rest
    lit = {(e.seat, e.peg): e.hole for e in companion.leds.output.latest_frame.pegs()}
    assert lit[("A", "front")] == 2
    shown = companion.leds.output.frames_shown
    companion.apply(game, {"type": "undo"})  # back: no walk, just the board at rest
    assert companion.wait_leds()
    assert companion.leds.output.frames_shown - shown == 1
    lit = {(e.seat, e.peg): e.hole for e in companion.leds.output.latest_frame.pegs()}
    assert lit[("A", "front")] == 0
    companion.close()


def test_the_boards_buttons_undo_and_say_go(tmp_path: Path) -> None:
    from gpiozero.pins.mock import MockFactory

    from cribbage.gamelog import GameStore
    from firmware.buttons import BoardButtons

    companion = Companion(GameStore(tmp_path / "games.sqlite3"))
    buttons = BoardButtons(seats="AB", pin_factory=MockFactory(), bounce_time=None)
    companion.attach_buttons(buttons)
    presses = companion.buttons
    assert presses is not None
    game = companion.new_game({"players": ["Ann", "Bob"]})
    for event in ({"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"},
                  {"type": "play", "seat": "A", "card": "JC"},
                  {"type": "play", "seat": "B", "card": "5S"}):
        companion.apply(game, event)

    def press(name: str) -> None:
        buttons.pin(name).drive_low()
        buttons.pin(name).drive_high()
        presses.join()

    press("undo")  # Bob's 5S taken back
    state = companion.state(game)
    assert state["scores"]["B"] == 0 and state["next"] == "B"
    log = companion.events(game)
    assert log[-1]["event"] == {"type": "undo"} and log[-1]["source"] == "button"
    press("go:A")  # not Ann's turn: refused, logged, nothing written
    assert len(companion.events(game)) == len(log)
    press("next")  # kept for the camera: nothing happens
    assert len(companion.events(game)) == len(log)
    companion.close()


def test_buttons_without_gpio_are_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [*CRIB, "serve", "--buttons", "--port", "0", "--data", str(tmp_path), "--leds", "none"],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "nonexistent"},
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--buttons" in done.stderr
