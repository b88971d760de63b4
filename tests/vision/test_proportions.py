"""A photo of one card resized to a square (as some collections of card images store them) is read
stretched back to a card's shape; other photos are read as they are."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import reader
from vision.cnn import CARDS
from vision.proportions import in_own_outline, paper_share
from vision.reader import read_cards
from vision.synth.compose import cropped
from vision.synth.decks import procedural_deck
from vision.tuning import PAPER_SHARE

NAMES = CARDS


def squared(name: str, side: int, across: bool = False) -> np.ndarray:
    """The drawn deck's ``name`` cropped to its edges and resized to ``side`` x ``side``, as JPEG."""
    img = cropped(procedural_deck(7).render(name, 300))
    if across:
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    img = cv2.resize(img, (side, side), interpolation=cv2.INTER_AREA)
    _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@pytest.mark.parametrize("side", [128, 224])
def test_every_card_resized_to_a_square_is_read_with_the_photo_as_its_outline(side, monkeypatch):
    border = [[0.0, 0.0], [float(side), 0.0], [float(side), float(side)], [0.0, float(side)]]
    photos = {name: squared(name, side) for name in NAMES}
    whole = []
    for name, img in photos.items():
        cards = read_cards(img).cards
        assert [c.card.name for c in cards] == [name]
        if cards[0].quad is not None:
            assert cards[0].quad == border  # in the photo's own pixels
            x, y = cards[0].center
            assert abs(x - side / 2) < 1 and abs(y - side / 2) < 1
            whole.append(name)
    # (a ten of this deck can lose its top index to the one-card rule: its small "1" makes the
    # card's diagonal more than OTHER_INDEX glyph sizes; then it is read as it is, and right)
    assert len(whole) >= 50
    # read as they are, the squares are no card's shape: no outline, and the tens lose their index
    monkeypatch.setattr(reader, "stretches", lambda img: [])
    as_they_are = {name: read_cards(img).cards for name, img in photos.items()}
    assert all(c.quad is None for cards in as_they_are.values() for c in cards)
    assert sum([c.card.name for c in cards] == [name] for name, cards in as_they_are.items()) < len(NAMES)


@pytest.mark.parametrize("name", ["7S", "TD", "QH"])
def test_a_card_lying_across_resized_to_a_square_is_stretched_across(name):
    cards = read_cards(squared(name, 224, across=True)).cards
    assert [c.card.name for c in cards] == [name]
    assert cards[0].quad is not None
    # its indices point across the photo, as the card lies
    assert all(abs(i.down[0]) > 0.8 for i in cards[0].indices)


@pytest.mark.parametrize(("width", "outlined"), [(140, False), (228, True)])
def test_a_square_photo_of_a_card_on_white_paper_is_read_as_it_is(width, outlined):
    # a card lying on a sheet of paper, up to nearly filling the photo (228 px wide is 318 tall in
    # a photo of 320): the photo is largely paper, but the card is not the photo. A big card's
    # outline, in a card's proportions round its indices, says so; a small card's indices are not
    # by the photo's corners
    card = cropped(procedural_deck(7).render("9C", 300), paper=230)
    tall = round(width * card.shape[0] / card.shape[1])
    card = cv2.resize(card, (width, tall), interpolation=cv2.INTER_AREA)
    cv2.rectangle(card, (0, 0), (card.shape[1] - 1, card.shape[0] - 1), (150, 150, 150), 1)
    img = np.full((320, 320, 3), 230, np.uint8)
    h, w = card.shape[:2]
    img[(320 - h) // 2:(320 - h) // 2 + h, (320 - w) // 2:(320 - w) // 2 + w] = card
    assert reader.stretches(img)  # largely paper, lying square: looked at stretched
    cards = read_cards(img).cards
    assert [c.card.name for c in cards] == ["9C"]
    assert cards == reader._as_shot(img, None, False)[0].cards  # as it is
    assert in_own_outline(img, cards[0].indices) == outlined
    x, y = cards[0].center
    assert abs(x - 160) < 10 and abs(y - 160) < 10


def test_a_square_photo_of_a_table_is_not_stretched(make_scene, monkeypatch):
    img = make_scene([("5H", 250, 300, 10), ("JS", 450, 400, -20)], size=(720, 720))
    assert paper_share(img) < PAPER_SHARE  # mostly table
    reader._ready()  # (the process's warm-up reading, before counting)
    calls, as_shot = [], reader._as_shot
    monkeypatch.setattr(reader, "_as_shot", lambda im, *a: calls.append(im.shape) or as_shot(im, *a))
    assert sorted(c.card.name for c in read_cards(img).cards) == ["5H", "JS"]
    assert calls == [img.shape]  # read once, as it is
