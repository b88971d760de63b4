"""Reading at the right scale: a photo bigger than the reader's working size (``tuning.MAX_SIDE``)
is read shrunk, and the places where its card outlines are too small to read at that size are read
again from the photo's own pixels (:func:`vision.reader._closer_read`). A camera's frame, read at
its own size, is not looked at again.

The scenes are drawn here (style 7, a deck the network never trained on)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import reader
from vision.reader import read_cards
from vision.synth.compose import drawn_table, place
from vision.synth.decks import procedural_deck

SMALL = [("7H", 700, 700, 10), ("TD", 1300, 3300, -20), ("6D", 5300, 700, 30), ("9C", 5300, 3300, 80)]


def names(img: np.ndarray) -> list[str]:
    return sorted(str(c.card) for c in read_cards(img).cards)


def big_photo_of_two_scales(seed: int) -> np.ndarray:
    """A 6000x4000 photo on felt: four cards 210 px wide (their index about 40 px tall) round one
    card 2100 px wide (its index about 400 px tall)."""
    img = drawn_table(SMALL, width=210, seed=seed, size=(4000, 6000), table="felt")
    place(img, procedural_deck(7).render("QS", 2200), (3000, 2000), 2100, 5, np.random.default_rng(seed),
          tilt=0.03)
    return img


@pytest.mark.parametrize("seed", [1, 2])
def test_a_big_photo_reads_indices_40_px_and_400_px_tall_alike(seed: int) -> None:
    assert names(big_photo_of_two_scales(seed)) == ["6D", "7H", "9C", "QS", "TD"]


def test_small_cards_whose_outlines_are_not_found_are_read_where_their_tiny_glyphs_lie(monkeypatch) -> None:
    # no outline at all (as on a grained table, or cards in a row): the tiny blobs lead the closer look
    monkeypatch.setattr(reader, "find_quads", lambda *args, **kwargs: [])
    assert names(big_photo_of_two_scales(1)) == ["6D", "7H", "9C", "QS", "TD"]


@pytest.mark.parametrize("kind", ["wood_dark", "cloth"])
def test_an_empty_big_table_read_closer_holds_no_card(kind: str) -> None:
    img = drawn_table([], seed=3, size=(3000, 4000), table=kind, back=(2000, 1500))
    reading = read_cards(img)
    assert reading.cards == [] and reading.unreadable == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_small_red_cards_in_a_1080p_photo_are_read(seed: int) -> None:
    # cards 72 px wide in 1920x1080 (60 px at the working size): red, on felt
    cards = [(n, 300 + 260 * k, 540 + (k % 2) * 160, (k * 29) % 60 - 30)
             for k, n in enumerate(["7H", "TD", "TH", "6D", "2D", "5H"])]
    img = drawn_table(cards, width=72, seed=seed, size=(1080, 1920), table="felt")
    assert names(img) == ["2D", "5H", "6D", "7H", "TD", "TH"]


def test_a_frame_read_at_its_own_size_is_not_looked_at_again(monkeypatch) -> None:
    def closer(*args, **kwargs):
        raise AssertionError("a frame at its own size was looked at closer")

    monkeypatch.setattr(reader, "closer_regions", closer)
    img = drawn_table([("7H", 400, 360, 0), ("TD", 800, 360, 20)], width=72, seed=4)
    assert img.shape[:2] == (720, 1280)
    assert names(img) == ["7H", "TD"]


def test_a_big_photo_whose_cards_are_all_read_is_not_looked_at_again(monkeypatch) -> None:
    looked: list[int] = []
    real = reader.closer_regions

    def closer(quads, scale, shape, tiles=()):
        regions = real(quads, scale, shape, tiles)
        looked.append(len(regions))
        return regions

    monkeypatch.setattr(reader, "closer_regions", closer)
    img = drawn_table([("7H", 900, 1000, 0), ("TD", 2100, 1000, 15)], width=600, seed=5, size=(2000, 3000))
    assert names(img) == ["7H", "TD"]
    assert looked == [0]
