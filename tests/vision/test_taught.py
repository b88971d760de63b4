"""Teach your deck (optional): ``vision.teach``, ``vision.taught``, ``crib vision teach``, on drawn photos."""

from __future__ import annotations

import json
import pathlib
import tempfile

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.errors import ImageError
from vision.reader import read_cards, read_with_patches
from vision.taught import MATCH, TaughtDeck
from vision.teach import teach

HEARTS = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]


def _suit_photo(make_scene, cards, seed=3):
    """The cards apart, face up, in two rows: how a player photographs a suit to teach it."""
    layout = [(c, 140 + 170 * (k % 7), 190 + 330 * (k // 7), 0) for k, c in enumerate(cards)]
    return make_scene(layout, width=150, seed=seed)


@pytest.fixture(scope="module")
def hearts_lesson(make_scene):
    return teach([("hearts.png", _suit_photo(make_scene, HEARTS))], cards=HEARTS)


def test_teaching_keeps_both_indices_of_each_card_named(hearts_lesson):
    deck = hearts_lesson.deck
    assert set(deck.known()) <= set(HEARTS) and len(deck.known()) >= 12
    assert hearts_lesson.missing["hearts.png"] == [c for c in HEARTS if c not in deck.known()]
    assert len(deck.cards) >= len(deck.known())  # one patch per index read (two when both show)
    assert deck.patches.dtype == np.uint8 and deck.patches.shape[1:] == (3, 40, 24)


def test_a_card_named_but_read_only_in_doubt_is_taught(hearts_lesson, make_scene, monkeypatch):
    # with the reader's threshold out of reach, every card of the photo is read only in doubt: none
    # is reported, yet each card the photo is said to hold is taught (a typeface the network reads
    # hesitantly is what teaching is for); unnamed, nothing so hesitant is
    from vision import reader, tuning

    photo = _suit_photo(make_scene, HEARTS)
    monkeypatch.setattr(tuning, "THRESHOLD", 0.9999)
    assert reader.read_cards(photo).cards == []
    named = teach([("hearts.png", photo)], cards=HEARTS)
    assert named.deck.known() == hearts_lesson.deck.known()
    assert named.missing["hearts.png"] == hearts_lesson.missing["hearts.png"]
    assert teach([("hearts.png", photo)]).deck.known() == []


def test_a_taught_glyph_sharpens_a_hesitant_rank_only(hearts_lesson, make_scene):
    deck = hearts_lesson.deck
    _, patches = read_with_patches(make_scene([("7H", 640, 360, 25)], width=170, seed=11))
    x = patches["7H"].astype(np.float32)
    assert deck.match(x).max(axis=1).min() >= MATCH  # the same deck, another photo: a close match
    hesitant = np.full((len(x), 14), 0.02, np.float32)
    hesitant[:, 0] = 0.45  # the network leans to "A"...
    hesitant[:, 6] = 0.3  # ...over "7"
    sharp = deck.sharpen(hesitant / hesitant.sum(axis=1, keepdims=True), x)
    assert (sharp.argmax(axis=1) == 6).all() and np.allclose(sharp.sum(axis=1), 1)
    noise = np.random.default_rng(0).uniform(0, 1.25, (3, 3, 40, 24)).astype(np.float32)
    flat = np.full((3, 14), 1 / 14, np.float32)
    assert np.array_equal(deck.sharpen(flat, noise), flat)  # nothing close: the network alone


def test_reading_with_a_taught_deck_reads_the_same_table(hearts_lesson, make_scene):
    img = make_scene([("5H", 300, 300, 10), ("QH", 800, 360, -30), ("9C", 1050, 500, 60)], width=170)
    plain = {c.card.name for c in read_cards(img).cards}
    taught = {c.card.name for c in read_cards(img, deck=hearts_lesson.deck).cards}
    assert taught == plain and {"5H", "QH"} <= taught


def test_save_and_load_round_trip_and_refuse_other_files(hearts_lesson, tmp_path):
    path = tmp_path / "deck.npz"
    hearts_lesson.deck.save(path)
    back = TaughtDeck.load(path)
    assert back.cards == hearts_lesson.deck.cards and np.array_equal(back.patches, hearts_lesson.deck.patches)
    (tmp_path / "junk.npz").write_bytes(b"not a deck")
    np.savez(tmp_path / "other.npz", cards=np.array(["ZZ"]), patches=np.zeros((1, 3, 40, 24), np.uint8))
    blank = np.zeros((1, 3, 40, 24), np.uint8)
    np.savez(tmp_path / "odd.npz", cards=np.array(["7H"]), patches=blank, norm="sepia")  # an unknown balance
    for bad in ("junk.npz", "other.npz", "odd.npz", "missing.npz"):
        with pytest.raises(ImageError):
            TaughtDeck.load(tmp_path / bad)
    with pytest.raises(ValueError):
        TaughtDeck(["7H"], np.zeros((2, 3, 40, 24), np.uint8))


def test_a_deck_saved_before_the_normalisation_was_recorded_is_brought_up_to_date(hearts_lesson, tmp_path):
    deck = hearts_lesson.deck
    dimmed = (deck.patches.astype(np.float32) * 0.6).astype(np.uint8)  # as if glare had set its paper level
    np.savez(tmp_path / "old.npz", cards=np.array(deck.cards), patches=dimmed)  # no "norm": an older file
    back = TaughtDeck.load(tmp_path / "old.npz")
    assert np.abs(back.patches.astype(int) - deck.patches.astype(int)).mean() < 3
    assert back.match(deck.patches.astype(np.float32) * (1.25 / 255)).max(axis=1).min() > 0.95


def test_crib_vision_teach_then_detect_with_the_deck(tmp_path, make_scene, capsys):
    photo = tmp_path / "hearts.png"
    cv2.imwrite(str(photo), _suit_photo(make_scene, HEARTS))
    out = tmp_path / "deck.npz"
    args = ["vision", "teach", str(photo), "--cards", " ".join(HEARTS), "--out", str(out), "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert out.exists() and len(report["taught"]) >= 12 and report["indices"] >= 12
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), make_scene([("KH", 640, 360, 15)], width=180, seed=5))
    assert main(["detect", str(table), "--deck", str(out), "--json"]) == 0
    assert [c["card"] for c in json.loads(capsys.readouterr().out)["cards"]] == ["KH"]
    # --add keeps what was taught before
    clubs = tmp_path / "clubs.png"
    cv2.imwrite(str(clubs), _suit_photo(make_scene, ["AC", "5C", "JC"]))
    assert main(["vision", "teach", str(clubs), "--cards", "all", "--add", "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["taught"]) >= {"AC", "5C", "JC"} and len(report["taught"]) >= 15


def test_teach_errors_are_one_line_exit_2_and_write_nothing(tmp_path, capsys):
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), np.full((480, 640, 3), 90, np.uint8))
    out = tmp_path / "deck.npz"
    assert main(["vision", "teach", str(empty), "--out", str(out)]) == 2
    assert "nothing taught" in capsys.readouterr().err and not out.exists()
    assert main(["vision", "teach", str(empty), "--cards", "ZZ", "--out", str(out)]) == 2
    assert "not a card" in capsys.readouterr().err
    assert main(["detect", str(empty), "--deck", str(tmp_path / "none.npz")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_page_uses_a_taught_deck_in_the_data_folder(hearts_lesson, make_scene, caplog):
    from companion.service import DECK_FILE, Companion, ServeConfig

    folder = pathlib.Path(tempfile.mkdtemp())
    companion = Companion.build(ServeConfig(data_dir=folder, leds="none"))
    try:
        _ok, png = cv2.imencode(".png", make_scene([("6H", 640, 360, 0)], width=180))
        assert companion._taught_deck() is None
        hearts_lesson.deck.save(folder / DECK_FILE)
        assert companion._taught_deck() is not None
        assert [c["card"] for c in companion.read_cards(png.tobytes())["cards"]] == ["6H"]
        (folder / DECK_FILE).write_bytes(b"damaged")  # a bad file: read on without it, say so
        assert [c["card"] for c in companion.read_cards(png.tobytes())["cards"]] == ["6H"]
        assert companion._taught_deck() is None and "taught deck not used" in caplog.text
    finally:
        companion.close()
