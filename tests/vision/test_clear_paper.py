"""An index lies on a card's clear paper (:func:`vision.index.paper.paper_gap`). Cards on a woven cloth (a
pair of jeans beside the cards, a rough tablecloth): the weave's dark spots are the size of a small
card's print and its bright threads pass for paper, but it has no clear paper, so it offers the
network nothing, and every card is still read. And a dim, grainy photo's paper is still clear
paper, and a coloured cloth's pale checks are not paper at all."""

from __future__ import annotations

import numpy as np
import pytest

import vision.index as index
from vision import tuning
from vision.index import ink, looks, paper
from vision.reader import read_cards
from vision.synth.compose import drawn_table, mild, place, table_image
from vision.synth.decks import procedural_deck

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


def everywhere(dark: tuple[np.ndarray, np.ndarray], grey: np.ndarray | None = None) -> np.ndarray:
    """:func:`vision.index.paper.paper_gap` as if every place were clear paper."""
    h, w = dark[0].shape
    return np.zeros(((h + 3) // 4, (w + 3) // 4), np.float32)  # no place is any distance from paper


def test_without_clear_paper_the_weave_would_be_hundreds_of_candidates(monkeypatch):
    # the same frame as if every place were clear paper, of any colour: what the network had to read
    monkeypatch.setattr(looks, "paper_gap", everywhere)
    monkeypatch.setattr(tuning, "PAPER_GREY", 1.0)
    assert candidates(woven(0)) > 300


def test_the_weaves_blue_threads_do_not_ring_its_spots_as_paper(monkeypatch):
    # clear paper everywhere, but ink must still be ringed by paper, and paper is grey (balanced
    # on the photo's white, the card's): the weave's pale threads are blue
    img = drawn_table([("5H", 640, 360, 10)], width=130, seed=0, table="denim")

    def on_the_weave() -> int:
        look = index.first_look(img)
        found = look.found + index.look_again(look) + index.look_unread(look)
        return sum(np.hypot(c.center[0] - 640, c.center[1] - 360) > 150 for c in found)

    monkeypatch.setattr(looks, "paper_gap", everywhere)
    assert on_the_weave() < 10
    monkeypatch.setattr(tuning, "PAPER_GREY", 1.0)
    assert on_the_weave() > 100


def test_the_weave_round_a_card_is_not_ink_on_paper(monkeypatch):
    # within reach of the card's clear paper, the weave's pale threads are the paper level of its
    # dark ones; that level is blue, a card's is grey: there is no ink on paper there
    img = drawn_table([("5H", 640, 360, 10)], width=130, seed=0, table="denim")

    def weave_lit() -> float:
        _v, lit = ink.relative_darkness(img)
        assert lit[360, 640] == 255  # the card's own paper
        return float((lit[:, :450] > 0).mean())  # the weave left of the card

    assert weave_lit() < 0.01
    monkeypatch.setattr(ink, "grey_level", lambda level: np.full(level.shape[:2], 255, np.uint8))
    assert weave_lit() > 0.15


@pytest.mark.parametrize("seed", range(2))
def test_twelve_cards_on_denim_are_all_read(seed):
    loose = [(n, 150 + (k % 6) * 200, 200 + (k // 6) * 330, 15 * (k % 3) - 15 + 180 * (k % 2))
             for k, n in enumerate(NAMES)]
    r = read_cards(drawn_table(loose, width=130, seed=seed, table="denim"))
    assert sorted(c.card.name for c in r.cards) == sorted(NAMES)
    assert r.unreadable == []


def test_a_played_row_on_denim_is_read():
    row = [(n, 300 + 45 * k, 360, 0) for k, n in enumerate(NAMES[:6])]  # each covers most of the last
    r = read_cards(drawn_table(row, width=130, seed=3, table="denim"))
    assert sorted(c.card.name for c in r.cards) == sorted(NAMES[:6])


def grainy(seed: int, sigma: float = 20, light: float = 0.5) -> tuple[np.ndarray, list[str]]:
    """Four cards 110 px wide in half the light, with sensor noise of ``sigma`` (a webcam in a dim
    room)."""
    names = ["5H", "JD", "9S", "AC"]
    img = drawn_table([(n, 250 + 250 * k, 360, 10 * k) for k, n in enumerate(names)], width=110, seed=seed)
    rng = np.random.default_rng(seed)
    return np.clip(img * light + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8), names


def test_a_dim_grainy_photo_is_read():
    read = [{c.card.name for c in read_cards(img).cards} & set(names) for img, names in map(grainy, range(2))]
    assert sum(map(len, read)) >= 7


def test_without_the_grainy_rule_a_dim_grainy_photo_had_no_clear_paper(monkeypatch):
    # noise leaves no 3x3 square of the paper all clear: without the even squares, no card is read
    monkeypatch.setattr(tuning, "EVEN_MAX", 0.0)
    img, _names = grainy(0)
    assert read_cards(img).cards == []


def gingham(cards: list[str], width: int) -> np.ndarray:
    """A 1280x720 pink gingham (checks of 40 px: pale where no band crosses, deep where two do)
    with ``cards`` of drawn style 7 lying loose on it, ``width`` px wide."""
    band = (np.arange(1280) // 40 % 2)[None, :] + (np.arange(720) // 40 % 2)[:, None]
    img = np.array([(190, 100, 240), (150, 60, 200), (90, 20, 130)], np.uint8)[band]  # BGR
    rng = np.random.default_rng(5)
    for k, name in enumerate(cards):
        place(img, procedural_deck(7).render(name, 2 * width), (160 + 190 * k, 250 + 220 * (k % 2)), width,
              20 * (k % 3) - 20, rng, tilt=0.03)
    return mild(img, rng)


def test_a_coloured_cloths_pale_checks_are_not_paper(monkeypatch):
    # the pale checks are bright and even, as paper is, but pink: saturated past PAPER_GREY
    img = gingham(NAMES[:6], 90)
    r = read_cards(img)
    assert sorted(c.card.name for c in r.cards) == sorted(NAMES[:6])
    near_cards = candidates(img)
    monkeypatch.setattr(tuning, "PAPER_GREY", 1.0)  # any colour is paper: the dark checks are ink on it
    assert candidates(img) > 2 * near_cards


def test_cards_under_a_lamp_the_camera_has_not_balanced_are_read(monkeypatch):
    # a tungsten bulb seen with daylight balance: the paper orange, saturated 0.58. Balanced on the
    # photo's own white (its brightest paper), it is grey again; the clear-paper test sees paper
    layout = [("5H", 300, 250, 10), ("9S", 700, 300, -20), ("QD", 1000, 480, 95), ("3C", 420, 520, 200)]
    img = drawn_table(layout, width=130, table="wood_light")
    warm = np.clip(img * np.array([0.42, 0.7, 1.0]), 0, 255).astype(np.uint8)  # BGR
    assert sorted(c.card.name for c in read_cards(warm).cards) == sorted(n for n, *_ in layout)
    monkeypatch.setattr(paper, "photo_white", lambda bgr: np.array([255.0, 255.0, 255.0]))  # not balanced
    assert read_cards(warm).cards == []
