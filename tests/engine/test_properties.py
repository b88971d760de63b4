"""Property tests: itemised points always add up, and every scorer agrees with every other."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.batch import score_batch
from cribbage.cards import PACK, Card
from cribbage.items import PLAY_KINDS, SHOW_KINDS
from cribbage.play import Play, score_lay
from cribbage.show import score_hand, show_total

five_cards = st.lists(st.sampled_from(PACK), min_size=5, max_size=5, unique=True)
four_cards = st.lists(st.sampled_from(PACK), min_size=4, max_size=4, unique=True)


@settings(max_examples=400, deadline=None)
@given(five_cards, st.booleans())
def test_items_sum_to_the_total_and_scorers_agree(cards: list[Card], crib: bool) -> None:
    hand, starter = cards[:4], cards[4]
    score = score_hand(hand, starter, crib=crib)
    assert sum(i.points for i in score.items) == score.total
    assert all(i.kind in SHOW_KINDS for i in score.items)
    assert show_total(hand, starter, crib=crib) == score.total
    batch = score_batch(np.array([[c.index for c in hand]]), np.array([starter.index]), crib=crib)
    assert int(batch[0]) == score.total
    assert score.total not in (19, 25, 26, 27) and 0 <= score.total <= 29
    # Order of the hand never matters.
    assert score_hand(list(reversed(hand)), starter, crib=crib).total == score.total


@settings(max_examples=200, deadline=None)
@given(four_cards)
def test_five_card_game_hands_agree(cards: list[Card]) -> None:
    hand, starter = cards[:3], cards[3]
    score = score_hand(hand, starter)
    assert sum(i.points for i in score.items) == score.total == show_total(hand, starter)
    batch = score_batch(np.array([[c.index for c in hand]]), np.array([starter.index]))
    assert int(batch[0]) == score.total


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PACK), min_size=1, max_size=8, unique=True), st.integers(2, 4))
def test_a_random_play_never_passes_31_and_items_explain_every_point(cards: list[Card], seats: int) -> None:
    """Lay the cards in turn; a seat whose card does not fit says go instead."""
    play = Play(seats)
    pending = list(cards)
    pegged = dict.fromkeys(range(seats), 0)
    steps = 0
    while pending and not play.over and steps < 100:
        steps += 1
        seat = play.next_seat
        assert seat is not None
        awards = play.lay(seat, pending.pop(0)) if play.can_lay(pending[0]) else play.go(seat)
        for award in awards:
            pegged[award.seat] += award.item.points
        assert 0 <= play.count <= 31
    for award in play.finish():
        pegged[award.seat] += award.item.points
    assert pegged == play.totals()
    assert all(i.kind in PLAY_KINDS for e in play.entries for i in e.items)
    assert [e.card for e in play.entries] == cards[: len(play.entries)]


@given(st.lists(st.sampled_from(PACK), min_size=1, max_size=13, unique=True))
def test_score_lay_points_are_explained(series: list[Card]) -> None:
    items = score_lay(series)
    kinds = [i.kind for i in items]
    assert len(kinds) == len(set(kinds))
    for item in items:
        assert item.cards == tuple(series[-len(item.cards) :])
