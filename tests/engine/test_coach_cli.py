"""``crib discard`` with a seat: the crib counted, JSON lines from stdin, bad lines named."""

from __future__ import annotations

import io
import json
import sys

import pytest

from companion.cli import main
from cribbage.analysis import discard_values
from cribbage.cards import parse_cards
from cribbage.coach import advise_discards

DEAL = ["7H", "8S", "5D", "5C", "KS", "AH"]
KEYS = ["keep", "discard", "hand", "crib", "total", "pegging", "hand_min", "hand_max", "hand_sd",
        "crib_min", "crib_max", "crib_sd", "crib_weighted"]


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_json_ranks_by_the_total_for_the_seat(role: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["discard", *DEAL, f"--{role}", "--json", "--top", "15"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dealt"] == DEAL and data["role"] == role and len(data["options"]) == 15
    assert all(list(o) == KEYS for o in data["options"])
    totals = [o["total"] for o in data["options"]]
    assert totals == sorted(totals, reverse=True)
    sign = 1 if role == "dealer" else -1
    assert all(o["total"] == pytest.approx(o["hand"] + sign * o["crib"], abs=1e-9) for o in data["options"])
    expected = advise_discards(parse_cards(" ".join(DEAL)), role).options[0]
    assert data["options"][0]["discard"] == [c.name for c in expected.discard]
    assert data["options"][0]["discard"] == (["7H", "8S"] if role == "dealer" else ["8S", "AH"])


def test_stdin_gives_one_line_per_deal_in_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["7H 8S 5D 5C KS AH", "5 of hearts", "", "5H 5S JD QC 2H", "5H 5H JD QC 2H 9S",
             "7H,8S,5D,5C,KS,AH"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["discard", "--stdin", "--dealer", "--top", "1", "--json"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["options"][0]["discard"] == ["7H", "8S"] and len(out[0]["options"]) == 1
    assert "'5'" in out[1]["error"] and "5H" in out[1]["error"]
    assert "error" in out[2]
    assert out[3]["variant"] == "five-card" and len(out[3]["options"][0]["keep"]) == 3
    assert out[4] == {"error": "5H is given twice"}
    assert out[5] == out[0]


def test_table_and_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["discard", *DEAL, "--pone"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "pone" in out[0] and "hand - crib" in out[0] and "pegging" in out[1]
    assert out[2].split()[:6] == ["7H", "5D", "5C", "KS", "8S", "AH"]
    with pytest.raises(SystemExit) as stop:
        main(["discard", *DEAL, "--dealer", "--pone"])
    assert stop.value.code == 2 and "not allowed" in capsys.readouterr().err
    assert main(["discard", "--dealer"]) == 2
    assert "give the cards" in capsys.readouterr().err
    assert main(["discard", *DEAL, "--stdin", "--dealer"]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.parametrize("top", ["0", "-3", "21", "x"])
def test_a_top_out_of_bounds_is_one_line_and_exit_2(top: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--top 0 silently showed one choice; the page's API says 400 for it: one bound for both."""
    for argv in (["discard", *DEAL, "--dealer", "--top", top],
                 ["check", "dealt.jpg", "--discard", "--dealer", "--top", top]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and out == "" and len(err.splitlines()) == 1
        assert f"how many choices to show: 1 to 20, not {top}" in err


def test_without_a_seat_the_kept_hand_alone_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["discard", *DEAL, "--json", "--top", "15"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["role"] is None
    assert all(o["total"] == o["hand"] and o["pegging"] is None for o in data["options"])
    old = discard_values(parse_cards(" ".join(DEAL)))  # the ranking by the kept hand's average
    assert [o["keep"] for o in data["options"]][:3] == [o["keep"] for o in old][:3]
