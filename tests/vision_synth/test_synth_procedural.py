"""The OpenCV-drawn deck and the corner-index measurement (no artwork package needed)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth.cards import ALL_CARDS, is_red
from vision.synth.decks import ProceduralDeck, load_decks, printed_back, procedural_deck
from vision.synth.index_box import measure_indices
from vision.synth.procedural import N_STYLES, font_files


def _iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area


@pytest.mark.parametrize("style", range(N_STYLES))
def test_every_face_renders_with_alpha_corners(style):
    deck = procedural_deck(style)
    for card in ALL_CARDS:
        face = deck.render(card, 150)
        assert face.shape[1] == 150 and face.shape[2] == 4
        assert 1.3 < face.shape[0] / face.shape[1] < 1.5
        assert face[0, 0, 3] < 60 and face[face.shape[0] // 2, 75, 3] == 255  # rounded corner


@pytest.mark.parametrize("style", range(N_STYLES))
def test_measured_index_matches_the_drawing(style):
    """The measurement from ink (used for the artwork decks) finds the box we drew."""
    deck = procedural_deck(style)
    for card in ALL_CARDS:
        drawn = deck.indices(card)
        measured = measure_indices(deck.master(card))
        assert len(measured) == 2, card
        for d, m in zip(drawn, measured, strict=True):
            assert _iou(d, m) > 0.8, (card, d, m)


def test_index_box_holds_ink_of_the_suit_colour(ink_ok):
    deck = procedural_deck(3)
    for card in ALL_CARDS:
        face = deck.render(card, 300)
        h, w = face.shape[:2]
        for x0, y0, x1, y1 in deck.indices(card):
            patch = face[int(y0 * h) : int(np.ceil(y1 * h)), int(x0 * w) : int(np.ceil(x1 * w)), :3]
            assert ink_ok(patch, is_red(card)), card
            assert not ink_ok(patch, not is_red(card)), card


def test_bad_card_code_is_refused():
    with pytest.raises(ValueError):
        procedural_deck().render("1X", 100)


def test_back_exists():
    back = procedural_deck().back(80)
    assert back is not None and back.shape[1] == 80 and back.shape[2] == 4


FONT_STYLES = range(N_STYLES, N_STYLES + len(font_files()))


@pytest.mark.skipif(not font_files(), reason="no DejaVu or Liberation fonts installed")
@pytest.mark.parametrize("style", FONT_STYLES)
def test_font_styles_draw_the_index_where_they_say(style, ink_ok):
    """Each TrueType style draws its rank in its own face; the box measured from the ink is the
    box drawn, and it holds ink of the suit's colour."""
    deck = ProceduralDeck(style)
    for card in ("TH", "7S", "QD", "AC"):
        drawn = deck.indices(card)
        measured = measure_indices(deck.master(card))
        assert len(measured) == 2, card
        for d, m in zip(drawn, measured, strict=True):
            assert _iou(d, m) > 0.8, (card, d, m)
        face = deck.render(card, 300)
        h, w = face.shape[:2]
        x0, y0, x1, y1 = drawn[0]
        patch = face[int(y0 * h) : int(np.ceil(y1 * h)), int(x0 * w) : int(np.ceil(x1 * w)), :3]
        assert ink_ok(patch, is_red(card)) and not ink_ok(patch, not is_red(card)), card


@pytest.mark.skipif(not font_files(), reason="no DejaVu or Liberation fonts installed")
def test_font_styles_differ_and_train_only():
    glyphs = {ProceduralDeck(s).master("7S")[:120, :80, :3].tobytes() for s in FONT_STYLES}
    assert len(glyphs) == len(FONT_STYLES)
    decks = {d.name: d.split for d in load_decks(procedural=True) if d.name.startswith("procedural")}
    assert all(decks[f"procedural-{s}"] == "train" for s in FONT_STYLES)
    assert decks[f"procedural-{N_STYLES - 1}"] == "val"


def test_printed_backs_are_one_ink_on_white_in_many_patterns():
    shares = []
    for seed in range(12):
        b = printed_back(np.random.default_rng(seed), 160)
        assert b.shape == (round(160 * 1.397), 160, 4) and b.dtype == np.uint8
        assert b[0, 0, 3] == 0 and b[b.shape[0] // 2, 80, 3] == 255  # rounded corners, opaque inside
        assert np.array_equal(b, printed_back(np.random.default_rng(seed), 160))
        panel = b[30:-30, 30:-30, :3].astype(int)
        ink = (panel.max(axis=2) - panel.min(axis=2) > 60) | (panel.max(axis=2) < 120)
        shares.append(float(ink.mean()))
        assert 0.03 < shares[-1] < 0.97, seed  # a pattern, neither blank nor solid
    assert len({round(x, 2) for x in shares}) > 8  # they differ


@pytest.mark.skipif(len(font_files()) < 2, reason="no DejaVu or Liberation fonts installed")
def test_a_deck_in_a_face_of_your_choice_keeps_its_style():
    """``face`` sets the ranks in another font and changes nothing else: a style drawn in its own
    face is the style as it was (so training data is unchanged), and in another face only the
    index differs."""
    own, other = font_files()[0], font_files()[-1]
    style = N_STYLES  # the style whose own face is font_files()[0]
    assert np.array_equal(ProceduralDeck(style, face=own).master("7S"), ProceduralDeck(style).master("7S"))
    a, b = ProceduralDeck(style).master("7S"), ProceduralDeck(style, face=other).master("7S")
    assert not np.array_equal(a, b)
    boxes = ProceduralDeck(style, face=other).indices("7S")
    h, w = a.shape[:2]
    body = np.ones((h, w), bool)  # the card outside both indices is drawn the same
    for bx0, by0, bx1, by1 in boxes + ProceduralDeck(style).indices("7S"):
        body[int(by0 * h) - 2:int(np.ceil(by1 * h)) + 2, int(bx0 * w) - 2:int(np.ceil(bx1 * w)) + 2] = False
    assert np.array_equal(a[body], b[body])
    assert ProceduralDeck(style, face=other).name == f"procedural-{style}-{other.rsplit('/', 1)[1][:-4]}"
