"""``crib score`` names the first word that is no card; ``crib discard`` takes a deal's cards only."""

from __future__ import annotations

import io
import json
import sys

import pytest

from companion.cli import main
from tests.engine.test_cli import run


def one_line_error(status: int, out: str, err: str) -> str:
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_a_card_in_words_is_named_not_a_missing_starter(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_error(*run(["score", "5", "of", "hearts"], capsys))
    assert "not a card: '5'" in err and "write 5H" in err
    assert "starter" not in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["score", "5C", "5D", "5H", "JS", "of"], "'of'"),
        (["score", "jack", "of", "spades", "5C", "--starter", "5S"], "write JS"),
        (["score", "5C", "5D", "5H", "JS", "--starter", "five"], "'five'"),
    ],
)
def test_the_first_word_that_is_no_card_is_named(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert needle in one_line_error(*run(argv, capsys))


def test_stdin_lines_name_the_word_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("5 of hearts\n5C 5D 5H JS 5S\n"))
    assert main(["score", "--stdin", "--json"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert "'5'" in first["error"] and "write 5H" in first["error"]
    assert second["total"] == 29


@pytest.mark.parametrize("count", [1, 4, 7])
def test_discard_takes_a_deal_of_6_or_5(count: int, capsys: pytest.CaptureFixture[str]) -> None:
    cards = ["5H", "5S", "JD", "QC", "2H", "9S", "3C"][:count]
    err = one_line_error(*run(["discard", *cards], capsys))
    assert f"{count} card" in err and "6 cards" in err


def test_discard_from_5_keeps_3_as_the_five_card_game_or_4_when_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    five = ["5H", "5S", "JD", "QC", "2H"]
    assert main(["discard", *five, "--json", "--top", "1"]) == 0
    assert len(json.loads(capsys.readouterr().out)["options"][0]["keep"]) == 3
    assert main(["discard", *five, "--keep", "4", "--json", "--top", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["options"][0]["discard"] == ["2H"]
    err = one_line_error(*run(["discard", *five, "2C", "--keep", "3"], capsys))
    assert "--keep 3" in err and "keeps 4" in err
