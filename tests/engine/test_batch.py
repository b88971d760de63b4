"""The batch scorer and the enumeration of every hand."""

from __future__ import annotations

import numpy as np
import pytest

from cribbage.analysis import all_four_card_hands, discard_values, score_distribution
from cribbage.batch import cards_array, rank_table, score_batch
from cribbage.cards import Card, parse_cards
from cribbage.errors import CardError
from cribbage.show import score_hand


def test_batch_agrees_with_the_itemising_scorer_on_many_random_hands() -> None:
    rng = np.random.default_rng(7)
    deals = np.array([rng.permutation(52)[:5] for _ in range(3000)], dtype=np.uint8)
    for crib in (False, True):
        got = score_batch(deals[:, :4], deals[:, 4], crib=crib)
        want = [
            score_hand([Card(int(i)) for i in row[:4]], Card(int(row[4])), crib=crib).total for row in deals
        ]
        assert got.tolist() == want


def test_rank_table_shape() -> None:
    assert rank_table(5).shape == (13**5,)
    assert rank_table(4).shape == (13**4,)
    with pytest.raises(ValueError):
        rank_table(6)


def test_the_published_distribution() -> None:
    dist = score_distribution()
    assert dist["hands"] == 12_994_800
    hand, crib = dist["hand"], dist["crib"]
    assert sum(hand.values()) == sum(crib.values()) == 12_994_800
    assert hand[0] == 1_009_008 and hand[29] == 4
    assert hand[19] == hand[25] == hand[26] == hand[27] == 0
    assert crib[0] == 1_022_208
    # Published figures for the whole table (e.g. Wikipedia's "Cribbage statistics").
    assert [hand[p] for p in (1, 2, 24, 28)] == [99_792, 2_813_796, 3_680, 76]


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    score_distribution(tables=("hand",), progress=lambda d, t: seen.append((d, t)), chunks=4)
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_all_hands_are_distinct() -> None:
    hands = all_four_card_hands()
    assert hands.shape == (270_725, 4)
    assert (np.diff(hands.astype(int), axis=1) > 0).all()


def test_bad_shapes_and_cards() -> None:
    with pytest.raises(CardError):
        score_batch(np.zeros((3, 5), dtype=np.uint8), np.zeros(3, dtype=np.uint8))
    with pytest.raises(CardError):
        cards_array([[0, 0, 1, 2]])
    with pytest.raises(CardError):
        cards_array([[0, 1, 2, 52]])


def test_discard_values() -> None:
    options = discard_values(parse_cards("5H 5S JD QC 2H 9S"))
    assert len(options) == 15
    assert options == sorted(options, key=lambda o: (-o["average"], -o["best"]))
    best = options[0]
    assert best["keep"] == ["5H", "5S", "JD", "QC"]
    # The average is over the 46 unseen starters, each scored by the engine.
    unseen = [c for c in map(Card, range(52)) if c.name not in {"5H", "5S", "JD", "QC", "2H", "9S"}]
    expected = sum(score_hand(parse_cards("5H 5S JD QC"), s).total for s in unseen) / 46
    assert best["average"] == pytest.approx(expected)
    with pytest.raises(CardError):
        discard_values(parse_cards("5H 5S JD QC"))
