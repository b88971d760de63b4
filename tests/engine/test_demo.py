"""``crib demo`` and ``crib discard``: what the terminal shows is the engine's real count."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.cli.demo import sample_deal


def test_sample_deal_adds_up() -> None:
    deal = sample_deal()
    show = {entry["who"]: entry["total"] for entry in deal["show"]}
    assert show == {"Ann": 17, "Bob": 6, "Bob's crib": 10}
    # Ann pegs a run of three, a pair and 31 in the play; Bob the last card.
    assert deal["scores"] == {"Ann": 3 + 4 + 17, "Bob": 1 + 6 + 10}


def test_demo_prints_the_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "Starter: 5H" in out
    assert "a triple run of three is seventeen" in out
    assert out.strip().endswith("Score: Ann 24, Bob 17")


def test_discard_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["discard", "5H", "5S", "JD", "QC", "2H", "9S", "--json", "--top", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dealt"] == ["5H", "5S", "JD", "QC", "2H", "9S"]
    assert len(data["options"]) == 3
    assert data["options"][0]["discard"] == ["2H", "9S"]


def test_discard_refuses_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["discard", "5H", "5S", "5H", "2C", "3D", "4S"]) == 2
    assert "5H is given twice" in capsys.readouterr().err
