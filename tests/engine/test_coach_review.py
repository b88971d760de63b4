"""The coach's words and its review after each deal (``cribbage.coach.why``, ``.review``)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from cribbage.cards import PACK, parse_cards
from cribbage.coach import advise_discards
from cribbage.coach.review import review_discard, review_game
from cribbage.coach.why import kept_items, summary, why
from cribbage.errors import CribbageError
from cribbage.game import Game, Settings
from cribbage.game.simulate import random_game
from cribbage.show import show_total


@pytest.mark.parametrize("cards, points, words", [
    ("5H 5S JD QC", 10, "four fifteens and a pair"),
    ("3C 4C 5C 5D", 8, "a double run of three"),
    ("2H 7H 9H KH", 4, "a flush of four"),
    ("7C 8D 7H 8S", 12, "four fifteens and two pairs"),
    ("AS 2D 3C 4H", 4, "a run of four"),
    ("5C 5D 5H 5S", 20, "four fifteens and a double pair royal"),
    ("2C 9D JH KS", 0, ""),
    ("5H 5S", 2, "a pair"),
    ("7H 8H", 2, "a fifteen"),
])
def test_kept_items_are_the_points_before_the_starter(cards: str, points: int, words: str) -> None:
    items = kept_items(parse_cards(cards))
    assert sum(i.points for i in items) == points
    assert summary(items) == words


def test_kept_items_never_exceed_the_show_with_any_starter() -> None:
    """Every point the kept cards score alone, they score with any starter too (a flush of four
    stays, a run may only grow, fifteens and pairs only add)."""
    rng = random.Random(31)
    for _ in range(60):
        hand = rng.sample(PACK, 4)
        alone = sum(i.points for i in kept_items(hand))
        shows = [show_total(hand, s) for s in PACK if s not in hand]
        assert alone <= min(shows)


def test_why_says_the_kept_points_and_the_crib() -> None:
    advice = advise_discards(parse_cards("5H 5S JD QC 2H 9S"), "pone")
    best = advice.options[0]
    assert why(best, "pone") == (
        f"Keeps 5♥ 5♠ J♦ Q♣: 10 before the starter (four fifteens and a pair), {best.hand:.1f} "
        f"likely with it. The crib gets 2♥ 9♠ (your opponent's): likely worth {best.crib:.1f}.")
    fives = next(o for o in advice.options if {c.name for c in o.discard} == {"5H", "5S"})
    assert "The crib gets 5♥ 5♠ (a pair, yours)" in why(fives, "dealer")
    assert "crib" not in why(best, None)


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_given_away_is_the_best_total_less_the_kept(role: str) -> None:
    rng = random.Random(7)
    for _ in range(10):
        dealt = rng.sample(PACK, 6)
        advice = advise_discards(dealt, role, pegging=False)
        for rank, option in enumerate(advice.options, 1):
            r = review_discard(dealt, option.discard, role)
            assert r.rank == rank and r.choices == 15
            assert r.given_away == pytest.approx(advice.options[0].total - option.total)
            assert r.given_away >= 0
            assert r.best.keep == advice.options[0].keep
        assert review_discard(dealt, advice.options[0].discard, role).given_away == 0


def test_a_discard_not_from_the_deal_is_refused() -> None:
    dealt = parse_cards("5H 5S JD QC 2H 9S")
    with pytest.raises(CribbageError, match="no discard"):
        review_discard(dealt, parse_cards("5H AC"), "dealer")
    with pytest.raises(CribbageError, match="no discard"):
        review_discard(dealt, parse_cards("5H"), "dealer")


def test_the_three_player_deal_lays_one_away() -> None:
    dealt = parse_cards("5H 5S JD QC 2H")
    r = review_discard(dealt, parse_cards("5H"), "pone", variant="three-player")
    assert r.choices == 5 and r.variant == "three-player"


def _hands_sent(events: list[dict]) -> list[dict[str, tuple[list[str], list[str]]]]:
    deals: list[dict[str, tuple[list[str], list[str]]]] = []
    dealt: dict[str, list[str]] = {}
    for e in events:
        if e["type"] == "hand":
            if e["seat"] in dealt or not deals:
                dealt = {}
                deals.append({})
            dealt[e["seat"]] = e["cards"]
        elif e["type"] == "discard":
            deals[-1][e["seat"]] = (dealt[e["seat"]], e["cards"])
    return deals


@pytest.mark.parametrize("variant, seed", [("six-card", 1), ("five-card", 2), ("three-player", 3),
                                           ("four-player", 4)])
def test_a_whole_game_is_reviewed_deal_by_deal(variant: str, seed: int) -> None:
    settings = Settings.from_json({"variant": variant, "target": 61})
    game, events = random_game(settings, random.Random(seed))
    state = game.to_json()
    review = review_game(state)
    sent = _hands_sent(events)
    side = {p["seat"]: p["side"] for p in state["players"]}
    assert len(review["deals"]) == len(state["history"]) >= 2
    totals: dict[str, float] = {}
    for deal, hands in zip(review["deals"], sent, strict=False):
        assert set(deal["seats"]) == set(hands) == set(side)
        for seat, r in deal["seats"].items():
            dealt, away = hands[seat]
            role = "dealer" if side[seat] == side[deal["dealer"]] else "pone"
            expected = review_discard(parse_cards(dealt), parse_cards(away), role, variant=variant)
            assert r == expected.as_dict()
            assert r["role"] == role and r["dealt"] == dealt and sorted(r["discards"]) == sorted(away)
            totals[seat] = totals.get(seat, 0.0) + expected.given_away
    if variant == "four-player":  # the dealer's partner lays away to the side's own crib
        roles = [(seat, d["dealer"], r["role"]) for d in review["deals"] for seat, r in d["seats"].items()]
        assert any(seat != dealer and role == "dealer" for seat, dealer, role in roles)
    for p in review["players"]:
        assert p["deals"] == len(review["deals"])
        assert p["given_away"] == pytest.approx(totals[p["seat"]], abs=1e-3)


def test_kept_cards_and_discards_entered_apart_are_reviewed() -> None:
    game = Game(Settings.from_json({}))
    for event in [
        {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "A", "cards": ["4S", "4H", "4D", "TC"]},
        {"type": "discard", "seat": "A", "cards": ["KH", "KC"]},
        {"type": "discard", "seat": "B", "cards": ["QS", "3D"]},  # B's hand never entered
        {"type": "starter", "card": "AC"},
        {"type": "play", "seat": "A", "card": "4S"}, {"type": "play", "seat": "B", "card": "5H"},
        {"type": "play", "seat": "A", "card": "4H"}, {"type": "play", "seat": "B", "card": "5D"},
        {"type": "play", "seat": "A", "card": "4D"}, {"type": "play", "seat": "B", "card": "9S"},
        {"type": "play", "seat": "A", "card": "TC"}, {"type": "play", "seat": "B", "card": "2C"},
        {"type": "show", "seat": "A"}, {"type": "show", "seat": "B"},
        {"type": "crib", "cards": ["KH", "KC", "QS", "3D"]},
    ]:
        game = game.apply(event)
    state = game.to_json()
    # B's hand is known from all four laid in the play and its discards: both are reviewed
    assert set(state["history"][0]["hands"]) == {"A", "B"}
    deal = review_game(state)["deals"][0]
    assert sorted(deal["seats"]["A"]["dealt"]) == sorted(["4S", "4H", "4D", "TC", "KH", "KC"])
    assert deal["seats"]["A"]["role"] == "pone" and deal["seats"]["B"]["role"] == "dealer"


def test_a_misdeal_and_unknown_hands_are_not_reviewed() -> None:
    settings = Settings.from_json({})
    game, _ = random_game(settings, random.Random(9), hands_known=False, max_deals=3)
    assert review_game(game.to_json())["deals"] == []
    game = Game(settings).apply({"type": "dealer", "seat": "A"})
    game = game.apply({"type": "hand", "seat": "A", "cards": ["5H", "5S", "JD", "QC", "2H", "9S"]})
    game = game.apply({"type": "discard", "seat": "A", "cards": ["2H", "9S"]})
    game = game.apply({"type": "misdeal", "penalty": 2})
    state = game.to_json()
    assert state["history"][0]["misdeal"] and review_game(state)["deals"] == []


def test_every_choice_is_some_review() -> None:
    """Each of the 15 ways to lay away from six cards reviews to a distinct rank."""
    dealt = parse_cards("AH 2S 3D 4C 5H 6S")
    ranks = {review_discard(dealt, away, "dealer").rank for away in combinations(dealt, 2)}
    assert ranks == set(range(1, 16))
