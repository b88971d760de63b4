"""A heart is printed red and a diamond red or blue: a pip of another colour read as one is held in
doubt (:func:`vision.reader._not_red_unless_red`). The network leans on shape: a drawn five of
diamonds printed black reads as a diamond at 1.0 without the rule."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import tuning
from vision.patch import in_colour
from vision.reader import read_cards

BLACK, BLUE = (25, 25, 25), (170, 60, 20)


@pytest.mark.parametrize("name", ["5D", "KD", "3H"])
def test_a_red_suit_printed_black_is_not_read_as_one(make_printed, name):
    assert [c.card.name for c in read_cards(make_printed(name, BLACK)).cards if c.card.name[1] in "DH"] == []


def test_a_suit_whose_colour_disagrees_is_marked_unreadable(make_printed):
    # the network, told "not a diamond", finds a black suit likelier than no suit: held in doubt
    reading = read_cards(make_printed("KD", BLACK))
    assert reading.cards == [] and len(reading.unreadable) >= 1


def test_without_the_rule_the_black_diamond_read_as_a_diamond(make_printed, monkeypatch):
    monkeypatch.setattr(tuning, "NOT_RED", -np.inf)
    assert [c.card.name for c in read_cards(make_printed("5D", BLACK)).cards] == ["5D"]


@pytest.mark.parametrize("name", ["5D", "9D", "KD"])
def test_a_four_colour_decks_blue_diamond_is_a_diamond(make_printed, name):
    assert [c.card.name for c in read_cards(make_printed(name, BLUE, angle=100, seed=2)).cards] == [name]


@pytest.mark.parametrize("name", ["5D", "7H"])
def test_red_print_reads_in_colour_and_in_greyscale(make_printed, name):
    img = make_printed(name, None)
    grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert in_colour(img) and not in_colour(grey)
    assert [c.card.name for c in read_cards(img).cards] == [name]
    assert [c.card.name for c in read_cards(grey).cards] == [name]  # no colour to judge by: shape alone


def test_black_print_reads_as_before(make_printed):
    assert [c.card.name for c in read_cards(make_printed("5S", None)).cards] == ["5S"]
