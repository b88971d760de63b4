"""The installed artwork decks (skipped where gnome-cards-data / kdegames-card-data-kf5 /
rsvg-convert are missing, as in a fresh clone without them)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth.cards import ALL_CARDS, is_red
from vision.synth.decks import CATALOGUE, artwork_available, load_decks

needs_artwork = pytest.mark.skipif(not artwork_available(), reason="artwork packages or rsvg-convert missing")


def test_catalogue_names_are_unique_and_split():
    names = [i.name for i in CATALOGUE]
    assert len(names) == len(set(names))
    kept = [i for i in CATALOGUE if i.keep]
    assert {i.split for i in kept} == {"train", "val"}


@needs_artwork
def test_splits_do_not_share_decks():
    train = {d.name for d in load_decks(split="train")}
    val = {d.name for d in load_decks(split="val")}
    assert train and val and not train & val


@needs_artwork
@pytest.mark.slow
def test_standard_deck_faces_and_index_ink(ink_ok):
    decks = load_decks(include=["ar-anglo", "kde-standard"])
    assert decks
    for deck in decks:
        for card in ALL_CARDS:
            face = deck.render(card, 240)
            h, w = face.shape[:2]
            assert 1.3 < h / w < 1.6
            boxes = deck.indices(card)
            assert len(boxes) == 2, (deck.name, card)
            for x0, y0, x1, y1 in boxes:
                patch = face[int(y0 * h) : int(np.ceil(y1 * h)), int(x0 * w) : int(np.ceil(x1 * w)), :3]
                assert ink_ok(patch, is_red(card)), (deck.name, card)
