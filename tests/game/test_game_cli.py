"""``crib game new|event|state``: the contract the acceptance checks use."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

from companion.cli import main


def crib(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real command in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        input=stdin, capture_output=True, text=True, timeout=60,
    )


def test_the_contract_in_a_real_process(tmp_path):
    db = str(tmp_path / "g.db")
    made = crib("game", "new", "--db", db, "--players", "Ann,Bob", "--muggins",
                "--counting", "claim")
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["settings"]["counting"] == "claim"
    events = [
        {"type": "cut", "cards": {"A": "4H", "B": "9C"}},  # A deals, B is pone
        {"type": "starter", "card": "JH"},
        {"type": "play", "seat": "B", "card": "5S"},
    ]
    for event in events:
        done = crib("game", "event", "--db", db, json.dumps(event))
        assert done.returncode == 0, done.stderr
    state = json.loads(crib("game", "state", "--db", db, "--json").stdout)
    assert state["scores"] == {"A": 2, "B": 0} and state["pegs"] == {"A": [2, 0], "B": [0, 0]}
    assert (state["phase"], state["dealer"], state["count"], state["series"], state["starter"]) \
        == ("play", "A", 5, ["5S"], "JH")
    assert state["winner"] is None and state["skunk"] is None and state["events"] == 3
    assert state["last"][0]["kind"] == "heels"

    refused = crib("game", "event", "--db", db, '{"type": "play", "seat": "B", "card": "6S"}')
    assert refused.returncode == 2
    assert "rule: turn" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 3

    lines = "\n".join(json.dumps(e) for e in [
        {"type": "play", "seat": "A", "card": "TS"},
        {"type": "play", "seat": "B", "card": "TD", "claim": 2},
    ])
    done = crib("game", "event", "--db", db, "--stdin", stdin=lines)
    assert done.returncode == 0, done.stderr
    after = json.loads(done.stdout)
    assert after["scores"] == {"A": 4, "B": 2} and after["count"] == 25


def test_stdin_is_all_or_nothing(tmp_path, capsys, monkeypatch):
    import io

    db = str(tmp_path / "g.db")
    assert main(["game", "new", "--db", db]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(
        '{"type": "dealer", "seat": "A"}\n\n{"type": "starter", "card": "5H"}\n'
        '{"type": "play", "seat": "A", "card": "6H"}\n'
    ))
    capsys.readouterr()
    assert main(["game", "event", "--db", db, "--stdin"]) == 2
    err = capsys.readouterr().err
    assert "event 3 of 3" in err and "rule: turn" in err
    assert main(["game", "state", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["events"] == 0


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    assert main(["game", "state", "--db", db, "--json"]) == 2  # no log yet
    assert not (tmp_path / "g.db").exists()  # and none is made by asking
    assert main(["game", "new", "--db", db, "--variant", "five-card"]) == 0
    for args in (["{not json"], ['["play"]'], ['{"type": "nope"}'], []):
        capsys.readouterr()
        assert main(["game", "event", "--db", db, *args]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["game", "state", "--db", db, "--game", "7"]) == 2
    junk = tmp_path / "junk.db"
    junk.write_text("not a database" * 200)
    assert main(["game", "new", "--db", str(junk)]) == 2
    assert junk.read_text() == "not a database" * 200


def test_game_option_log_and_list(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    main(["game", "new", "--db", db, "--players", "Ann,Bob"])
    main(["game", "new", "--db", db, "--variant", "three-player", "--target", "61"])
    capsys.readouterr()
    assert main(["game", "event", "--db", db, "--game", "1", '{"type": "dealer", "seat": "A"}'])== 0
    assert json.loads(capsys.readouterr().out)["game"] == 1
    assert main(["game", "state", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "game 2 (three-player, to 61)" in out
    assert main(["game", "log", "--db", db, "--game", "1"]) == 0
    assert '"dealer"' in capsys.readouterr().out
    assert main(["game", "list", "--db", db, "--json"]) == 0
    assert [g["id"] for g in json.loads(capsys.readouterr().out)] == [2, 1]


def test_bad_settings_exit_2(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    assert main(["game", "new", "--db", db, "--players", "Ann"]) == 2
    assert "rule: settings" in capsys.readouterr().err
    assert main(["game", "new", "--db", db, "--variant", "four-player", "--players",
                 "Ann,Bob,Cat,Dan"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == {"AC": 0, "BD": 0}
