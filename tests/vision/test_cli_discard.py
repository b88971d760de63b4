"""``crib check IMAGE --discard``: the six dealt read from a photo the tests draw, ranked as
``crib discard`` ranks them."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main

SIX = [("5H", 140, 200, 0), ("5S", 390, 200, 0), ("JD", 640, 200, 0),
       ("QC", 890, 200, 0), ("2H", 1140, 200, 0), ("9S", 640, 540, 0)]


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory, make_scene) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("dealt") / "dealt.png"
    cv2.imwrite(str(path), make_scene(SIX, width=170))
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("role", ["--dealer", "--pone"])
def test_the_json_is_crib_discards_for_the_cards_read(dealt: str, capsys, role: str) -> None:
    status, out, _ = _run(capsys, "check", dealt, "--discard", role, "--json", "--top", "15")
    assert status == 0
    got = json.loads(out)
    assert sorted(c["card"] for c in got.pop("read")) == sorted(n for n, *_ in SIX)
    status, out, _ = _run(capsys, "discard", *got["dealt"], role, "--json", "--top", "15")
    assert status == 0 and got == json.loads(out)
    assert sorted(got["dealt"]) == sorted(n for n, *_ in SIX) and len(got["options"]) == 15


def test_the_table_is_crib_discards(dealt: str, capsys) -> None:
    status, out, _ = _run(capsys, "check", dealt, "--discard", "--dealer")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("dealt: ") and "dealer, six-card game (total = hand + crib)" in lines[0]
    assert len(lines) == 2 + 5  # the best five by default
    read = lines[0].split()[1:7]
    status, table, _ = _run(capsys, "discard", *read, "--dealer")
    assert out == table


@pytest.mark.parametrize("args, words", [
    (["--discard", "--starter", "5S"], "no --starter or --crib"),
    (["--dealer"], "go with --discard"),
])
def test_misused_options_are_one_line_exit_2(dealt: str, capsys, args: list[str], words: str) -> None:
    status, out, err = _run(capsys, "check", dealt, *args)
    assert status == 2 and out == "" and err.count("\n") == 1 and words in err


def test_too_few_cards_read_is_one_line_exit_2(tmp_path, make_scene, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "four.png"
    cv2.imwrite(str(path), make_scene(SIX[:4], width=170))
    status, out, err = _run(capsys, "check", str(path), "--discard", "--pone")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "read 4 card(s)" in err and "6 (or 5)" in err
