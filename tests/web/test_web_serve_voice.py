"""``crib serve --voice``: the running companion says each score (a stand-in espeak-ng on PATH
notes what it is asked to say, so this runs where espeak-ng is missing); a wrong ``--voice`` is
one line and status 2."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from browserkit import spawn_server, start_server, stop_server

from companion.cli import main
from companion.cli.base import UsageError
from companion.cli.serve import check_voice


def test_serve_says_the_demo_on_the_voice_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    said = fake_espeak(tmp_path, monkeypatch)
    proc, _ = start_server(tmp_path / "data", "--demo", "--demo-step", "0.05", "--leds", "none",
                           "--voice", f"wav:{tmp_path / 'wav'}")
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(_lines(said)) < 3:
            time.sleep(0.1)
    finally:
        stop_server(proc)
    lines = _lines(said)
    assert len(lines) >= 3
    first_args, first_text = lines[0].split("|", 1)
    assert first_args.startswith(f"-v en-gb -s 160 -w {tmp_path / 'wav'}/0001-")
    assert first_text.startswith(("Ann: ", "Bob: ", "Ann's crib: ", "Bob's crib: "))  # the demo's players


def test_serve_on_the_network_says_its_table_code_first(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi with no screen: phones join by the table code, so the voice says it at start (on
    this computer only, as above, it does not: there the page shows it)."""
    said = fake_espeak(tmp_path, monkeypatch)
    proc = spawn_server(tmp_path / "data", "--leds", "none", "--voice", f"wav:{tmp_path / 'wav'}",
                        host="0.0.0.0")
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not _lines(said):
            time.sleep(0.1)
    finally:
        stop_server(proc)
    code = json.loads((tmp_path / "data" / "web.json").read_text())["table_code"]
    assert _lines(said)[0].split("|", 1)[1] == f"The table code is {', '.join(code)}."


def fake_espeak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in espeak-ng first on PATH; returns the file it notes each call in
    (``arguments|text`` a line)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    said = tmp_path / "said.txt"
    fake = bin_dir / "espeak-ng"
    fake.write_text(f'#!/bin/sh\necho "$*|$(cat)" >> "{said}"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return said


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize(("argv", "message"), [
    (["serve", "--voice", "loud"], "--voice is espeak, espeak:VOICE, wav:DIR or none, not 'loud'"),
    (["serve", "--voice", "wav:"], "--voice is espeak"),
    (["serve", "--voice", "wav:/proc/no/such"], "cannot make the folder"),
])
def test_a_wrong_voice_is_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_voice_given_bare_is_espeak() -> None:
    from companion.cli import build_parser

    assert build_parser().parse_args(["serve", "--voice"]).voice == "espeak"
    assert build_parser().parse_args(["serve"]).voice is None
    check_voice("espeak:en-us")
    with pytest.raises(UsageError):
        check_voice("espeak:en us")
