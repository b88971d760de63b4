"""The ``crib score``, ``crib peg`` and ``crib enumerate`` command-line contract."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from companion.cli import main


def run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    stdin: str | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse errors
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "5C", "5D", "5H", "JS", "--starter", "5S", "--json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert data["total"] == 29
    assert data["items"][0] == {"kind": "fifteen", "cards": ["5C", "JS"], "points": 2}
    assert data["spoken"].endswith("his nobs is twenty-nine")


def test_score_crib_and_five_card(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["score", "2H", "4H", "6H", "8H", "--starter", "KS", "--crib", "--json"], capsys)
    assert json.loads(out)["total"] == 0
    _, out, _ = run(["score", "2H", "4H", "6H", "--starter", "KS", "--json"], capsys)
    assert json.loads(out)["items"] == [{"kind": "flush", "cards": ["2H", "4H", "6H"], "points": 3}]


def test_score_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "5C", "5D", "6H", "9S", "--starter", "AC"], capsys)
    assert status == 0
    assert out.splitlines()[0] == "8  fifteen two, fifteen four, fifteen six and a pair is eight"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["score", "5C", "5D", "5X", "JS", "--starter", "5S"], "'5X'"),
        (["score", "5C", "5D", "5H", "JS"], "--starter"),
        (["score", "5C", "5D", "5H", "JS", "--starter", "5C"], "5C is given twice"),
        (["score", "5C", "5D", "--starter", "5S"], "4 cards"),
        (["score", "5C", "5D", "5H", "JS", "--starter", "5S", "--bogus"], "--bogus"),
        (["peg", "A:4S", "A:5H"], "A:5H"),
        (["peg", "A:4S", "B:5Q"], "'5Q'"),
        (["peg", "A4S"], "'A4S'"),
        (["peg", "1:4S"], "'1:4S'"),
        (["peg", "A:TS", "B:KH", "A:9D", "B:5C"], "B:5C"),
        (["peg", "A:TS", "B:TS"], "B:TS"),
        (["peg"], "no plays"),
        (["nonsense"], "nonsense"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(argv, capsys)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert needle in err
    assert "Traceback" not in err


def test_score_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = "5C 5D 5H JS 5S\nnot cards\n\n2H 3H 4H 5H 6H\n5C 5C 5H JS 5S\n"
    status, out, _ = run(["score", "--stdin", "--json"], capsys, lines, monkeypatch)
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r.get("total") for r in rows] == [29, None, 14, None]
    assert "error" in rows[1] and "5C is given twice" in rows[3]["error"]


def test_score_stdin_crib(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(["score", "--stdin", "--crib", "--json"], capsys, "2H 4H 6H 8H KS\n", monkeypatch)
    assert status == 0 and json.loads(out)["total"] == 0


def test_peg_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["peg", *["A:4S", "B:5H", "A:3C", "B:3D", "A:3S", "B:7C", "A:go", "B:6D", "A:9H"], "--json"]
    status, out, _ = run(argv, capsys)
    assert status == 0
    data = json.loads(out)
    assert data["totals"] == {"A": 10, "B": 6}
    assert data["plays"][:3] == [
        {"seat": "A", "card": "4S", "count": 4, "points": 0, "items": []},
        {"seat": "B", "card": "5H", "count": 9, "points": 0, "items": []},
        {
            "seat": "A",
            "card": "3C",
            "count": 12,
            "points": 3,
            "items": [{"kind": "run", "cards": ["4S", "5H", "3C"], "points": 3}],
        },
    ]
    assert len(data["plays"]) == 8  # a go needs no entry of its own
    assert data["plays"][-1]["items"] == [{"kind": "go", "cards": ["9H"], "points": 1}]


def test_peg_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = "A:4S B:5H A:3C B:3D A:3S B:7C A:go B:6D A:9H\nA:4S A:5H\nA:KS B:QH A:8C B:3D\n"
    status, out, _ = run(["peg", "--stdin", "--json"], capsys, lines, monkeypatch)
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0]["totals"] == {"A": 10, "B": 6}
    assert "error" in rows[1] and "A:5H" in rows[1]["error"]
    assert rows[2]["totals"] == {"A": 0, "B": 2}


def test_help_is_useful(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for command in ("score", "peg", "enumerate"):
        assert command in out


def test_the_console_script_runs_as_a_process() -> None:
    """The installed ``crib`` entry point, as acceptance checks call it."""
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "enumerate", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["hands"] == 12_994_800
    assert data["hand"]["0"] == 1_009_008 and data["crib"]["0"] == 1_022_208
    assert data["seconds"] > 0
