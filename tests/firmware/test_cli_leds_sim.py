"""``crib leds test --output sim`` says the simulated strip shows nothing, and where to look."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_sim_does_not_claim_to_show_the_frames(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leds", "test", "--output", "sim"]) == 0
    out = capsys.readouterr().out
    assert "shown on" not in out and "0.00 s" not in out
    assert "shows them nowhere" in out
    assert "crib leds render --png" in out and "crib serve --leds sim" in out


def test_sim_json_says_not_shown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leds", "test", "--output", "sim", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["shown"] is False and summary["frames"] > 366
