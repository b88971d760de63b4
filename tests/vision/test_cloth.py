"""Cards on a woven cloth (a pair of jeans beside the cards, a rough tablecloth): the weave's dark
spots are the size of a small card's print and its bright threads pass for paper. An index lies on
a card's clear paper, so the weave offers the network nothing, and every card is still read."""

from __future__ import annotations

import numpy as np
import pytest

import vision.index as index
from vision.reader import read_cards
from vision.synth.compose import drawn_table, mild, table_image

NAMES = ["5H", "JD", "9S", "AC", "QH", "7C", "3D", "KS", "TH", "2S", "8D", "6C"]


def woven(seed: int) -> np.ndarray:
    """A 1280x720 frame of bare denim (:func:`vision.synth.tables.denim`)."""
    rng = np.random.default_rng(seed)
    return mild(table_image(rng, 720, 1280, "denim"), rng)


def candidates(img: np.ndarray) -> int:
    """How many candidates the finder offers the network in every look at ``img``."""
    look = index.first_look(img)
    return len(look.found) + len(index.look_again(look)) + len(index.look_unread(look))


@pytest.mark.parametrize("seed", range(2))
def test_bare_denim_offers_the_network_nothing(seed):
    img = woven(seed)
    assert candidates(img) == 0
    assert read_cards(img).cards == []


def test_without_clear_paper_the_weave_would_be_hundreds_of_candidates(monkeypatch):
    # the same frame as if every place were clear paper: what the network had to read before
    def everywhere(dark):
        h, w = dark[0].shape
        return np.zeros(((h + 1) // 2, (w + 1) // 2), np.float32)

    monkeypatch.setattr(index, "paper_gap", everywhere)
    assert candidates(woven(0)) > 300


@pytest.mark.parametrize("seed", range(2))
def test_twelve_cards_on_denim_are_all_read(seed):
    loose = [(n, 150 + (k % 6) * 200, 200 + (k // 6) * 330, 15 * (k % 3) - 15 + 180 * (k % 2))
             for k, n in enumerate(NAMES)]
    r = read_cards(drawn_table(loose, width=130, seed=seed, table="denim"))
    assert sorted(c.card for c in r.cards) == sorted(NAMES)
    assert r.unreadable == []


def test_a_played_row_on_denim_is_read():
    row = [(n, 300 + 45 * k, 360, 0) for k, n in enumerate(NAMES[:6])]  # each covers most of the last
    r = read_cards(drawn_table(row, width=130, seed=3, table="denim"))
    assert sorted(c.card for c in r.cards) == sorted(NAMES[:6])
