"""``crib detect`` and ``crib check`` on photos the tests draw."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from cribbage.cards import parse_card
from cribbage.show import score_hand
from vision.hand import apart, starter_apart
from vision.reader import CardRead, IndexSeen


def _write(tmp_path, name, img):
    path = tmp_path / name
    cv2.imwrite(str(path), img)
    return str(path)


def test_detect_json_one_line_per_image_and_errors(tmp_path, make_scene, capsys):
    good = _write(tmp_path, "a.png", make_scene([("5H", 640, 360, 0)], width=200))
    bad = tmp_path / "b.jpg"
    bad.write_text("not an image")
    status = main(["detect", good, str(bad), str(tmp_path / "missing.png"), "--json"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert status == 2
    assert [x["image"] for x in lines] == [good, str(bad), str(tmp_path / "missing.png")]
    assert [c["card"] for c in lines[0]["cards"]] == ["5H"]
    assert (lines[0]["width"], lines[0]["height"]) == (1280, 720)
    assert "error" in lines[1] and "error" in lines[2]


@pytest.mark.parametrize("size", [(1, 1), (3, 1), (15, 400)])
def test_detect_an_image_too_small_for_a_card_reads_none(tmp_path, capsys, size):
    path = _write(tmp_path, "tiny.png", np.full((*size, 3), 200, np.uint8))
    assert main(["detect", path, "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["cards"] == [] and (line["height"], line["width"]) == size


def test_detect_one_missing_file_is_one_line_exit_2(tmp_path, capsys):
    assert main(["detect", str(tmp_path / "none.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


def test_check_finds_the_starter_apart(tmp_path, make_scene, capsys):
    hand = [("5C", 250, 170, 0), ("5D", 480, 170, 0), ("5S", 710, 170, 0), ("JD", 940, 170, 0)]
    path = _write(tmp_path, "hand.png", make_scene([*hand, ("TC", 1050, 560, 0)], width=190))
    assert main(["check", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = score_hand([parse_card(n) for n, *_ in hand], parse_card("TC")).to_json()
    assert out["total"] == expected["total"]
    assert out["starter_from"] == "the card lying apart"
    assert (out["starter"], sorted(out["hand"])) == ("TC", ["5C", "5D", "5S", "JD"])
    assert len(out["read"]) == 5
    assert main(["check", path]) == 0  # the text says which card was taken for the starter
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{expected['total']}  ")
    assert lines[1].startswith("hand ") and lines[1].endswith("starter TC (the card lying apart)")


def test_check_with_named_starter(tmp_path, make_scene, capsys):
    cards = [("2C", 250, 300, 0), ("3D", 480, 300, 0), ("4H", 710, 300, 0), ("9D", 940, 300, 0)]
    path = _write(tmp_path, "hand.png", make_scene(cards, width=190))
    assert main(["check", path, "--starter", "TC", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = score_hand([parse_card(n) for n, *_ in cards], parse_card("TC")).to_json()
    assert out["total"] == expected["total"]
    assert (out["starter"], out["starter_from"]) == ("TC", "named")


def test_check_without_a_card_apart_gives_every_starter(tmp_path, make_scene, capsys):
    cards = [(n, 160 + 240 * k, 360, 0) for k, n in enumerate(["2C", "3D", "4H", "9D", "KC"])]
    path = _write(tmp_path, "hand.png", make_scene(cards, width=190))
    assert main(["check", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["starter"] is None and len(out["options"]) == 5


def test_check_four_cards_say_the_hand_counted_is_three(tmp_path, make_scene, capsys):
    """Four cards read: a five-card game's hand and its starter, or a six-card hand with a card
    missed; the count says which it took them for."""
    hand = [("5C", 250, 170, 0), ("5D", 480, 170, 0), ("JD", 710, 170, 0)]
    path = _write(tmp_path, "three.png", make_scene([*hand, ("5S", 1050, 560, 0)], width=190))
    assert main(["check", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(out["hand"]) == ["5C", "5D", "JD"] and out["starter"] == "5S"
    assert out["total"] == score_hand([parse_card(n) for n, *_ in hand], parse_card("5S")).to_json()["total"]
    assert "five-card game" in out["note"]
    assert main(["check", path]) == 0
    assert "five-card game" in capsys.readouterr().out.splitlines()[-1]


def test_check_four_cards_none_apart_are_the_hand_with_every_starter(tmp_path, make_scene, capsys):
    """Four cards in a row, none lying apart: as the page's Photo tab counts them, the four are
    the hand, counted with each card of the pack not among them as the starter."""
    from cribbage.cards import parse_cards
    from cribbage.show import each_starter

    row = [(n, 160 + 240 * k, 360, 0) for k, n in enumerate(["2C", "3D", "4H", "9D"])]
    four = _write(tmp_path, "four.png", make_scene(row, width=190))
    assert main(["check", four, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["starter"] is None and out["starters_from"] == "pack" and "note" not in out
    assert sorted(out["hand"]) == ["2C", "3D", "4H", "9D"]
    expected = each_starter(parse_cards(out["hand"]))
    assert [(o["starter"], o["total"]) for o in out["options"]] == [
        (o.starter.name, o.total) for o in expected]
    assert len(out["options"]) == 48 and out["groups"][0]["total"] == expected[0].total
    assert main(["check", four]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("no starter lies apart: the hand ")
    assert lines[0].endswith("with each possible starter")
    assert all(line.startswith("  ") and ": starter " in line for line in lines[1:])


def test_check_five_cards_have_no_note(tmp_path, make_scene, capsys):
    cards = [("2C", 250, 300, 0), ("3D", 480, 300, 0), ("4H", 710, 300, 0), ("9D", 940, 300, 0)]
    path = _write(tmp_path, "hand.png", make_scene([*cards, ("KC", 1100, 600, 0)], width=190))
    assert main(["check", path, "--json"]) == 0
    assert "note" not in json.loads(capsys.readouterr().out)


SPREAD = [("2C", 350, 372, -8), ("3D", 420, 366, -4), ("4H", 490, 360, 0), ("9D", 560, 366, 4)]


def test_check_a_hand_spread_for_the_show_has_no_card_apart(tmp_path, make_scene, capsys):
    """Five cards spread, each covering most of the one before: the top card shows whole, its
    centre half a card from the others' indices, but it is not lying apart."""
    path = _write(tmp_path, "spread.png", make_scene([*SPREAD, ("KC", 630, 372, 8)], width=190))
    assert main(["check", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["starter"] is None
    assert sorted(o["starter"] for o in out["options"]) == ["2C", "3D", "4H", "9D", "KC"]


def test_check_a_spread_hand_with_its_starter_apart(tmp_path, make_scene, capsys):
    path = _write(tmp_path, "spread.png", make_scene([*SPREAD, ("5S", 1000, 450, 10)], width=190))
    assert main(["check", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["starter_from"] == "the card lying apart"
    hand = [parse_card(n) for n, *_ in SPREAD]
    assert out["total"] == score_hand(hand, parse_card("5S")).to_json()["total"]


@pytest.mark.parametrize(
    ("centers", "expected"),
    [([(0, 0), (60, 0), (120, 0), (180, 0), (700, 400)], 4), ([(0, 0), (60, 0), (120, 0), (180, 0)], None)],
)
def test_apart(centers, expected):
    assert apart(centers) == expected


def test_the_top_card_of_a_spread_is_not_apart_even_read_by_its_far_index():
    """The reader may read only the far index of the spread's top card (its near one in doubt):
    the card's body, which runs from that index up and left to the others, is what counts."""
    # a deck with a big index (30 px glyphs on cards 250 x 350), spread 60 px a card
    covered = [CardRead(n, 0.9, (x, 100.0), None, [IndexSeen((x, 100.0), (0.0, 1.0), 30.0)])
               for n, x in (("2C", 100.0), ("3D", 160.0), ("4H", 220.0), ("9D", 280.0))]
    top = CardRead("KC", 0.9, (560.0, 420.0), None, [IndexSeen((560.0, 420.0), (0.0, -1.0), 30.0)])
    assert apart([c.center for c in [*covered, top]]) == 4  # by the centres alone
    assert starter_apart([*covered, top]) is None
    starter = CardRead("5S", 0.9, (900.0, 420.0), None, [IndexSeen((900.0, 420.0), (0.0, -1.0), 30.0)])
    assert starter_apart([*covered, starter]) == 4
