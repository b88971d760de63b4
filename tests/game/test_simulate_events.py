"""``random_events``: the random player one event at a time, as ``crib serve --demo`` sends them."""

from __future__ import annotations

import itertools
import random

import pytest

from cribbage.game import VARIANTS, Game, Settings
from cribbage.game.simulate import random_events, random_game


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("known", [True, False])
def test_the_events_one_at_a_time_are_the_whole_random_game(variant: str, known: bool) -> None:
    settings = Settings.from_json({"variant": variant})
    whole, sent = random_game(settings, random.Random(5), hands_known=known)
    pairs = list(random_events(settings, random.Random(5), hands_known=known))
    assert [event for _game, event in pairs] == sent
    folded = Game(settings)
    for game, event in pairs:  # each event comes with the game after it
        folded = folded.apply(event)
        assert game.to_json() == folded.to_json()
    assert pairs[-1][0].to_json() == whole.to_json() and whole.phase == "over"


@pytest.mark.parametrize("dealer", ["A", "B"])
def test_the_first_dealer_can_be_named(dealer: str) -> None:
    settings = Settings.from_json({})
    for seed in range(6):
        first, _ = next(random_events(settings, random.Random(seed), dealer=dealer))
        assert first.dealer == dealer


def test_the_events_come_in_the_order_of_the_table() -> None:
    settings = Settings.from_json({})
    events = random_events(settings, random.Random(3))
    taken = [event["type"] for _game, event in itertools.islice(events, 3)]
    assert taken == ["dealer", "hand", "discard"]
    assert next(events)[1]["type"] == "hand"
