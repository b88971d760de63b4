"""The coach's discard figures are exact: every starter, every way the other crib cards fall."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.analysis import score_distribution
from cribbage.batch import score_batch
from cribbage.cards import PACK, Card, parse_cards
from cribbage.coach import advise_discards
from cribbage.coach.discard import discard_histograms
from cribbage.errors import CardError
from cribbage.game.settings import VARIANTS
from cribbage.show import show_total


def _split(dealt: list[Card], keep: list[Card]) -> tuple[list[Card], list[Card], list[Card]]:
    away = [c for c in dealt if c not in keep]
    return keep, away, [c for c in PACK if c not in dealt]


def _stats(scores: list[int] | np.ndarray) -> tuple[float, int, int, float]:
    a = np.asarray(scores, dtype=np.float64)
    return float(a.mean()), int(a.min()), int(a.max()), float(a.std())


def _option(advice, keep: list[Card]):
    return next(o for o in advice.options if set(o.keep) == set(keep))


def _check(option, hand: list[int] | np.ndarray, crib: list[int] | np.ndarray) -> None:
    mean, low, high, sd = _stats(hand)
    assert (option.hand, option.hand_min, option.hand_max) == (pytest.approx(mean, abs=1e-12), low, high)
    assert option.hand_sd == pytest.approx(sd, abs=1e-9)
    mean, low, high, sd = _stats(crib)
    assert (option.crib, option.crib_min, option.crib_max) == (pytest.approx(mean, abs=1e-12), low, high)
    assert option.crib_sd == pytest.approx(sd, abs=1e-9)


# Kept hands chosen so that the crib holds a jack and suited cards (nobs, the five-card flush),
# and a five-card deal (three kept, a four-card crib).
SHOW_PY_CASES = [
    ("JH 5H 2H 9H TC KS", "9H TC KS 5H"),  # lay away JH 2H: a hearts flush with nobs can fall
    ("JH 5H 2H 9H TC KS", "JH 5H 2H 9H"),  # lay away TC KS; the hand a four-card flush
    ("5S 5H 5D JC 4C 6C", "5S 5H 5D 6C"),  # lay away JC 4C
    ("JD 4D 5D 6S 7S", "6S 7S 5D"),  # five-card game: lay away JD 4D
]


@pytest.mark.slow
@pytest.mark.parametrize(("dealt", "keep"), SHOW_PY_CASES)
def test_figures_equal_every_outcome_counted_by_the_show(dealt: str, keep: str) -> None:
    """Brute force with :func:`cribbage.show.show_total`: every starter, every opponent pair."""
    cards = parse_cards(dealt)
    kept, away, unseen = _split(cards, parse_cards(keep))
    hand = [show_total(kept, s) for s in unseen]
    crib = [
        show_total([*away, *others], s, crib=True)
        for s in unseen
        for others in combinations([c for c in unseen if c is not s], 4 - len(away))
    ]
    _check(_option(advise_discards(cards, "dealer"), kept), hand, crib)


def _batch_brute(dealt: list[Card], variant: str) -> list[tuple[list[Card], np.ndarray, np.ndarray]]:
    """Every option's hand and crib scores over every outcome, by the batch scorer."""
    v = VARIANTS[variant]
    out = []
    for kept in combinations(dealt, v.kept):
        kept, away, unseen = _split(dealt, list(kept))
        u = np.array([c.index for c in unseen], dtype=np.uint8)
        hand = score_batch(np.tile([c.index for c in kept], (len(u), 1)), u)
        others = np.array(list(combinations(range(len(u)), 4 - len(away))), dtype=np.int64)
        rows, starters = [], []
        for s in range(len(u)):
            ok = others[(others != s).all(axis=1)]
            rows.append(np.concatenate([np.tile([c.index for c in away], (len(ok), 1)), u[ok]], axis=1))
            starters.append(np.full(len(ok), u[s]))
        crib = score_batch(np.concatenate(rows).astype(np.uint8), np.concatenate(starters), crib=True)
        out.append((kept, hand, crib))
    return out


BATCH_CASES = [
    ("5S 5H 5D 5C JS JH", "six-card"),  # no five unseen; jacks on both sides
    ("AH 2H 3H JH QH KH", "six-card"),  # one suit: flushes everywhere
    ("3S AS 2S 2C 3C JC", "six-card"),  # double-double runs in hand and crib
    ("JS JH 5S 5H 4S", "three-player"),  # one card laid away, three unknown
    ("JD 4D 5D 6S 7S", "five-card"),
    *[(" ".join(c.name for c in random.Random(seed).sample(PACK, 6)), "six-card") for seed in range(3)],
]


@pytest.mark.parametrize(("dealt", "variant"), BATCH_CASES)
def test_every_option_equals_the_batch_scorer_over_every_outcome(dealt: str, variant: str) -> None:
    cards = parse_cards(dealt)
    advice = advise_discards(cards, "pone", variant=variant)
    assert len(advice.options) == len(list(combinations(cards, VARIANTS[variant].kept)))
    for kept, hand, crib in _batch_brute(cards, variant):
        option = _option(advice, kept)
        _check(option, hand, crib)
        assert option.total == pytest.approx(option.hand - option.crib)


def test_ranked_by_the_total_for_the_seat() -> None:
    cards = parse_cards("5H 5S JD QC 2H 9S")
    dealer = advise_discards(cards, "dealer").options
    pone = advise_discards(cards, "pone").options
    alone = advise_discards(cards).options
    for options in (dealer, pone, alone):
        totals = [o.total for o in options]
        assert totals == sorted(totals, reverse=True)
    assert all(o.total == pytest.approx(o.hand + o.crib) for o in dealer)
    assert all(o.total == o.hand for o in alone)
    # Laying 5-5 away is the dealer's third-best choice here, never the pone's good one.
    assert [c.name for c in pone[0].discard] == ["2H", "9S"]
    assert {c.name for c in pone[-1].discard} == {"5H", "5S"}


def test_the_dealer_and_the_pone_lay_away_differently() -> None:
    cards = parse_cards("7H 8S 5D 5C KS AH")  # the dealer gives his crib 7-8, a fifteen
    dealer = advise_discards(cards, "dealer").options[0]
    pone = advise_discards(cards, "pone").options[0]
    assert [c.name for c in dealer.discard] == ["7H", "8S"]
    assert [c.name for c in pone.discard] == ["8S", "AH"]


def test_bad_input_is_refused() -> None:
    with pytest.raises(CardError, match="given twice"):
        advise_discards(parse_cards("5H 5S JD QC 2H", unique=False) + parse_cards("5H"))
    with pytest.raises(CardError, match="dealer or pone"):
        advise_discards(parse_cards("5H 5S JD QC 2H 9S"), "crib")
    with pytest.raises(CardError, match="deals 6 cards, not 5"):
        advise_discards(parse_cards("5H 5S JD QC 2H"), variant="six-card")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True), st.sampled_from(list(VARIANTS)))
def test_every_outcome_is_counted_once(indices: list[int], variant: str) -> None:
    v = VARIANTS[variant]
    cards = [Card(i) for i in indices[: v.dealt]]
    hand, crib = discard_histograms(cards, variant)
    unseen = 52 - v.dealt
    others = 4 - v.discard
    ways = 1
    for i in range(others):
        ways = ways * (unseen - 1 - i) // (i + 1)
    assert (hand.sum(axis=1) == unseen).all()
    assert (crib.sum(axis=1) == unseen * ways).all()


@pytest.fixture(scope="module")
def published() -> dict:
    return score_distribution()


@pytest.mark.slow
def test_the_figures_over_many_deals_reproduce_the_published_distributions(published: dict) -> None:
    """A random deal's kept hand with a starter is a random (hand, starter) pair, and its crib
    a random (crib, starter) pair: averaged over random deals, the exact per-deal histograms
    give the published distributions of all 12,994,800 pairs, to within the sampling error
    (estimated from 8 batches of deals; 6 standard errors allowed)."""
    rng = random.Random(5)
    batches = {"hand": np.zeros((8, 40)), "crib": np.zeros((8, 40))}
    for i in range(400):
        h, c = discard_histograms(rng.sample(PACK, 6))
        batches["hand"][i % 8] += (h / h.sum(axis=1, keepdims=True)).sum(axis=0)
        batches["crib"][i % 8] += (c / c.sum(axis=1, keepdims=True)).sum(axis=0)
    for table, rows in batches.items():
        rows = rows / rows.sum(axis=1, keepdims=True)
        ours, se = rows.mean(axis=0), rows.std(axis=0, ddof=1) / np.sqrt(8)
        truth = np.zeros(40)
        truth[:30] = [published[table][p] for p in range(30)]
        truth /= published["hands"]
        assert (np.abs(ours - truth) <= 6 * se + 1e-4).all(), (table, np.abs(ours - truth) / (se + 1e-9))
        points = np.arange(40)
        assert abs(ours @ points - truth @ points) <= 6 * (rows @ points).std(ddof=1) / np.sqrt(8)


def test_as_dict_is_the_cli_contract() -> None:
    advice = advise_discards(parse_cards("5H 5S JD QC 2H 9S"), "dealer")
    data = advice.as_dict(2)
    assert data["dealt"] == ["5H", "5S", "JD", "QC", "2H", "9S"] and data["role"] == "dealer"
    option = data["options"][0]
    assert list(option) == ["keep", "discard", "hand", "crib", "total", "pegging", "hand_min", "hand_max",
                            "hand_sd", "crib_min", "crib_max", "crib_sd", "crib_weighted"]
    assert option["total"] == pytest.approx(option["hand"] + option["crib"], abs=1e-9)
    assert isinstance(option["pegging"], float)
    assert len(data["options"]) == 2
