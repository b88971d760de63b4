"""``crib game``: any malformed input is one line on stderr and exit status 2, the log unchanged.

Events too deeply nested, too long, with numbers past their domain or text that is not valid
Unicode (a raw byte in an argument arrives as a lone surrogate), binary garbage on stdin, and a
``--db`` that is an empty file or not a game log (left byte for byte as it was).
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from cribbage.game.limits import MAX_ADJUST, MAX_DEPTH, MAX_EVENT_BYTES, MAX_PENALTY

DEEP = "[" * 5000 + "]" * 5000


def rows(db: Path) -> tuple[list[tuple], list[tuple]]:
    with sqlite3.connect(db) as conn:
        return (conn.execute("SELECT * FROM games").fetchall(),
                conn.execute("SELECT * FROM events").fetchall())


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "g.db"
    assert main(["game", "new", "--db", str(path), "--players", "Ann,Bob"]) == 0
    assert main(["game", "event", "--db", str(path), '{"type": "dealer", "seat": "B"}']) == 0
    capsys.readouterr()
    return path


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], stdin: bytes | None = None,
            monkeypatch: pytest.MonkeyPatch | None = None) -> str:
    """Run ``crib`` in this process; assert exit 2 and one line on stderr; return that line."""
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2, (argv[:4], err)
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


MALFORMED = {
    "not an object": ("[1, 2]", "not a JSON object"),
    "no type": ("{}", "no event of type None"),
    "an unknown type": ('{"type": "peg"}', "no event of type 'peg'"),
    "a list for a seat": ('{"type": "go", "seat": ["A"]}', "seat"),
    "an object for cards": ('{"type": "hand", "seat": "A", "cards": {"5C": 1}}', "list of cards"),
    "a float for points": ('{"type": "adjust", "seat": "A", "points": 1.5}', "whole number"),
    "a bool for points": ('{"type": "adjust", "seat": "A", "points": true}', "whole number"),
    "null points": ('{"type": "adjust", "seat": "A", "points": null}', "needs points"),
    "a card that is not a card": ('{"type": "starter", "card": "ZZ"}', "not a card"),
    "too many cards": ('{"type": "hand", "seat": "A", "cards": "AC 2C 3C 4C 6C 7C 8C"}',
                       "at most 6 cards"),
    "a negative penalty": ('{"type": "misdeal", "penalty": -1}', f"0 to {MAX_PENALTY}"),
    "a penalty of 10^20": ('{"type": "misdeal", "penalty": 100000000000000000000}', "21 digits"),
    "a penalty past its range": ('{"type": "misdeal", "penalty": 11}', f"0 to {MAX_PENALTY}"),
    "adjust past a game": (f'{{"type": "adjust", "seat": "A", "points": {MAX_ADJUST + 1}}}',
                           f"1 to {MAX_ADJUST}"),
    "adjust of 4000 digits": ('{"type": "adjust", "seat": "A", "points": 1' + "0" * 3999 + "}",
                              "4000 digits"),
    "a number of 5000 digits": ('{"type": "adjust", "seat": "A", "points": 1' + "0" * 4999 + "}",
                                "5000 digits"),
    "5000 digits as text": ('{"type": "adjust", "seat": "A", "points": "1' + "0" * 4999 + '"}',
                            f"1 to {MAX_ADJUST}"),
    "a digit that is not 0-9": ('{"type": "adjust", "seat": "A", "points": "\u00b2"}',
                                "whole number"),
    "a claim past a hand": ('{"type": "play", "seat": "A", "card": "5C", "claim": 30}', "0 to 29"),
    "an event number of 10^15": ('{"type": "muggins", "seat": "A", "event": 1000000000000000}',
                                 "whole number"),
    "nested 5000 deep": (DEEP, "too deeply nested"),
    "nested deep in a field": ('{"type": "go", "seat": "A", "x": ' + DEEP + "}",
                               "too deeply nested"),
    "one level too deep": ('{"type": "go", "x": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}",
                           "too deeply nested"),
    "a lone surrogate in the reason": (
        '{"type": "adjust", "seat": "A", "points": 2, "reason": "\\ud800"}', "reason"),
    "a raw byte in the reason": (
        '{"type": "adjust", "seat": "A", "points": 2, "reason": "' + os.fsdecode(b"\xff") + '"}',
        "reason is not valid Unicode"),
    "NaN": ('{"type": "adjust", "seat": "A", "points": NaN}', "NaN"),
    "not JSON": ("{not json", "not JSON"),
    "too long": ('{"type": "go", "seat": "A", "x": "' + "a" * MAX_EVENT_BYTES + '"}', "too large"),
}


@pytest.mark.parametrize("kind", list(MALFORMED))
def test_a_malformed_event_is_one_line_and_exit_2(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    text, words = MALFORMED[kind]
    before = rows(db)
    err = refused(capsys, ["game", "event", "--db", str(db), text])
    assert words in err
    assert rows(db) == before
    line = text.encode("utf-8", "surrogateescape") + b"\n"
    err = refused(capsys, ["game", "event", "--db", str(db), "--stdin"], stdin=line,
                  monkeypatch=monkeypatch)
    assert ("line 1 is not UTF-8" if kind == "a raw byte in the reason" else words) in err
    assert rows(db) == before


def test_unknown_fields_are_dropped_not_stored(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event = {"type": "adjust", "seat": "A", "points": 2, "reason": "house rule", "x": [1]}
    assert main(["game", "event", "--db", str(db), json.dumps(event)]) == 0
    assert json.loads(rows(db)[1][-1][4]) == {"type": "adjust", "seat": "A", "points": 2,
                                             "reason": "house rule"}


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        (b"", "no events on stdin"),
        (b"\n  \n", "no events on stdin"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, "line 1 is not UTF-8"),
        (b'{"type": "go", "seat": "A", "x": "' + b"a" * 10_000_000 + b'"}\n', "line 1 is too large"),
        (b'{"type": "adjust", "seat": "A", "points": 1}\n' + DEEP.encode() + b"\n",
         "line 2 is too deeply nested"),
    ],
    ids=["empty", "blank lines", "binary garbage", "a 10 MB line", "deep on line 2"],
)
def test_bad_stdin_is_one_line_and_exit_2(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    stdin: bytes, words: str,
) -> None:
    before = rows(db)
    err = refused(capsys, ["game", "event", "--db", str(db), "--stdin"], stdin=stdin,
                  monkeypatch=monkeypatch)
    assert words in err
    assert rows(db) == before


def test_a_name_past_24_characters_is_refused(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = rows(db)
    said = refused(capsys, ["game", "new", "--db", str(db), "--players", "Ann," + "B" * 10_000])
    assert "players[1] is 10000 characters long; a player's name is at most 24" in said
    assert rows(db) == before


def test_a_raw_byte_in_a_name_or_source_is_refused(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = rows(db)
    name = os.fsdecode(b"B\xffb")  # how Python hands over an argument that is not UTF-8
    assert "players" in refused(capsys, ["game", "new", "--db", str(db), "--players", f"Ann,{name}"])
    assert "players" in refused(capsys, ["game", "new", "--db", str(db), "--players", name])
    event = '{"type": "adjust", "seat": "A", "points": 2}'
    assert "source" in refused(capsys, ["game", "event", "--db", str(db), "--source", name, event])
    assert rows(db) == before


def crib(*args: bytes, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """The real command in a child process, its arguments as raw bytes."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([os.fsencode(sys.executable), b"-m", b"companion.cli", *args],
                          input=stdin, capture_output=True, timeout=60, env=env)


def test_a_real_process_with_raw_bytes_and_deep_json(db: Path) -> None:
    before = rows(db)
    path = os.fsencode(db)
    for args, stdin in [
        ((b"game", b"new", b"--db", path, b"--players", b"Ann,\xff"), b""),
        ((b"game", b"event", b"--db", path, DEEP.encode()), b""),
        ((b"game", b"event", b"--db", path, b"--stdin"), DEEP.encode()),
        ((b"game", b"event", b"--db", path, b"--stdin"), b"\x00\xff\xfe garbage \x80\n"),
        ((b"game", b"event", b"--db", path,
          b'{"type": "adjust", "seat": "A", "points": 1' + b"0" * 4999 + b"}"), b""),
    ]:
        done = crib(*args, stdin=stdin)
        err = done.stderr.decode(errors="replace")
        assert done.returncode == 2 and len(err.strip().splitlines()) == 1, (args[:4], err)
        assert "Traceback" not in err
    assert rows(db) == before


@pytest.mark.parametrize("content", [b"", b"hello, not a database\n", "sqlite-no-tables"],
                         ids=["empty", "text", "sqlite without a log"])
@pytest.mark.parametrize("command", [["state"], ["log"], ["list"], ["new"],
                                     ["event", '{"type": "dealer", "seat": "A"}']],
                         ids=lambda c: c[0])
def test_a_db_that_is_not_a_game_log_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | str, command: list[str]
) -> None:
    path = tmp_path / "other.db"
    if content == "sqlite-no-tables":
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE t (x)")
            conn.execute("DROP TABLE t")  # a SQLite file with no table, user_version 0
    else:
        path.write_bytes(content)  # type: ignore[arg-type]
    before = path.read_bytes()
    err = refused(capsys, ["game", command[0], "--db", str(path), *command[1:]])
    assert "not a game log" in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_the_help_states_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["game", "event", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for figure in (f"{MAX_EVENT_BYTES} bytes", f"{MAX_DEPTH} deep", f"1 to {MAX_ADJUST}",
                   f"0 to {MAX_PENALTY}"):
        assert figure in text
