"""The show: the worked examples of RULES.md, each kind of item, flushes, nobs and errors."""

from __future__ import annotations

import pytest

from cribbage.cards import Card, parse_card, parse_cards
from cribbage.errors import CardError
from cribbage.show import each_starter, score_hand, show_total

# RULES.md, "Worked examples": hand + starter, N = jack of the starter's suit, * = a five-card
# flush; other suits are mixed so that no flush or nobs arises.
WORKED = """
A 4 4 4 10: 12 · A A 6 7 7: 12 · 2 6 6 7 7: 12 · A A 6 7 8: 13 · A 4 4 N 4: 13 ·
3 3 6 6 9: 14 · 4 4 7 7 7: 14 · 4 5 6 Q K*: 14 · 3 3 9 9 9: 14 · A 2 3 3 3: 15 ·
A A 2 2 3: 16 · 2 3 4 4 4: 17 · 2 3 3 3 4: 17 · 5 5 J Q K: 17 · 3 3 3 6 6: 18 ·
5 5 10 N Q: 18 · 3 3 4 4 5: 20 · 6 6 9 9 9: 20 · 3 3 6 6 6: 20 · 4 4 4 7 7: 20 ·
3 3 4 5 5: 20 · 6 6 7 7 8: 20 · 7 8 8 9 9: 20 · 4 5 6 6 6: 21 · 5 5 N J J: 21 ·
3 3 3 4 5: 21 · 7 7 7 8 9: 21 · 5 5 5 10 10: 22 · 5 5 5 N J: 23 · 4 5 5 6 6: 24 ·
5 5 5 5 10: 28 · 5 N 5 5 5: 29
"""
RANK_OF = {"A": 1, "J": 11, "Q": 12, "K": 13, "N": 11}


def build_example(text: str) -> tuple[list[Card], Card]:
    """Turn a worked example into real cards: the starter is the last card that is not N,
    N is the jack of its suit, every other card gets a suit that makes no flush or nobs."""
    flush = text.endswith("*")
    tokens = text.rstrip("*").split()
    # The starter: the last card that is neither N nor a jack (N must be of its suit).
    starter_at = max(i for i, t in enumerate(tokens) if t not in ("N", "J"))
    starter_suit = 0
    used: set[Card] = set()
    cards: list[Card | None] = [None] * len(tokens)
    starter_rank = int(tokens[starter_at]) if tokens[starter_at].isdigit() else RANK_OF[tokens[starter_at]]
    cards[starter_at] = Card.of(starter_rank, starter_suit)
    used.add(cards[starter_at])
    rotation = [1, 2, 3, 0]
    turn = 0
    for i, token in enumerate(tokens):
        if i == starter_at:
            continue
        rank = int(token) if token.isdigit() else RANK_OF[token]
        if token == "N":
            card = Card.of(11, starter_suit)
        elif flush:
            card = Card.of(rank, starter_suit)
        else:
            while True:
                suit = rotation[turn % 4]
                turn += 1
                candidate = Card.of(rank, suit)
                if candidate not in used and not (rank == 11 and suit == starter_suit):
                    card = candidate
                    break
        assert card not in used
        used.add(card)
        cards[i] = card
    starter = cards.pop(starter_at)
    hand = [c for c in cards if c is not None]
    assert starter is not None and len(hand) == 4
    return hand, starter


EXAMPLES = [
    (part.split(":")[0].strip(), int(part.split(":")[1])) for part in WORKED.replace("\n", " ").split("·")
]


def test_all_worked_examples_are_listed() -> None:
    assert len(EXAMPLES) == 32


@pytest.mark.parametrize(("example", "expected"), EXAMPLES)
def test_worked_example(example: str, expected: int) -> None:
    hand, starter = build_example(example)
    score = score_hand(hand, starter)
    assert score.total == expected, [str(i) for i in score.items]
    assert show_total(hand, starter) == expected
    kinds = {i.kind for i in score.items}
    assert ("flush" in kinds) == example.endswith("*")
    assert ("nobs" in kinds) == ("N" in example.split())


def test_items_name_the_cards() -> None:
    score = score_hand(parse_cards("3H 4S 4D 5C"), parse_card("KD"))
    assert [(i.kind, [c.name for c in i.cards], i.points) for i in score.items] == [
        ("fifteen", ["5C", "KD"], 2),
        ("pair", ["4S", "4D"], 2),
        ("run", ["3H", "4S", "5C"], 3),
        ("run", ["3H", "4D", "5C"], 3),
    ]
    assert score.total == 10
    assert score.spoken == "fifteen two and a double run of three is ten"


@pytest.mark.parametrize(
    ("hand", "starter", "spoken"),
    [
        ("5C 5D 6H 9S", "AC", "fifteen two, fifteen four, fifteen six and a pair is eight"),
        (
            "3C 3D 3H 4S",
            "5D",
            "fifteen two, fifteen four, fifteen six and a triple run of three is twenty-one",
        ),
        ("3C 3D 4H 4S", "5D", "fifteen two, fifteen four and a double double run of three is twenty"),
        ("AC 3D 7H 9S", "KD", "nineteen (no points)"),
        ("2H 4H 6H 8H", "KS", "a flush of four is four"),
        ("JS 5H 2C 9D", "KS", "fifteen two, fifteen four and his nobs is five"),
        ("9C 9D 2H 2S", "KD", "two pairs is four"),
        ("9C 9D 9H 2S", "KD", "a pair royal is six"),
    ],
)
def test_spoken_counts(hand: str, starter: str, spoken: str) -> None:
    assert score_hand(parse_cards(hand), parse_card(starter)).spoken == spoken


def test_hand_flush_and_crib_flush() -> None:
    hand = parse_cards("2H 4H 6H 8H")
    assert score_hand(hand, parse_card("KS")).points_of("flush") == 4
    assert score_hand(hand, parse_card("KH")).points_of("flush") == 5
    assert score_hand(hand, parse_card("KS"), crib=True).points_of("flush") == 0
    assert score_hand(hand, parse_card("KH"), crib=True).points_of("flush") == 5
    # Three hand cards and the starter do not make a flush in a four-card hand.
    assert score_hand(parse_cards("2H 4H 6H 8S"), parse_card("KH")).points_of("flush") == 0


def test_nobs_only_for_a_hand_jack_of_the_starters_suit() -> None:
    assert score_hand(parse_cards("JH 2C 4D 8S"), parse_card("KH")).points_of("nobs") == 1
    assert score_hand(parse_cards("JH 2C 4D 8S"), parse_card("KS")).points_of("nobs") == 0
    # The starter itself being a jack is his heels (in the play), not nobs.
    assert score_hand(parse_cards("2C 4D 8S KH"), parse_card("JH")).points_of("nobs") == 0
    assert score_hand(parse_cards("JH 2C 4D 8S"), parse_card("KH"), crib=True).points_of("nobs") == 1


def test_five_card_game_three_card_hands() -> None:
    assert score_hand(parse_cards("2H 4H 6H"), parse_card("KS")).points_of("flush") == 3
    assert score_hand(parse_cards("2H 4H 6H"), parse_card("KH")).points_of("flush") == 4
    score = score_hand(parse_cards("5C 5D JS"), parse_card("5S"))
    # J with each of three 5s, 5-5-5 (four fifteens), a pair royal and nobs.
    assert score.total == 8 + 6 + 1
    assert score.total == show_total(parse_cards("5C 5D JS"), parse_card("5S"))


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "message"),
    [
        ("5C 5D 5H", "5S", True, "a crib holds 4 cards"),
        ("5C 5D", "5S", False, "a hand holds 4 cards"),
        ("5C 5D 5H JS 2D", "5S", False, "not 5"),
        ("5C 5D 5H JS", "5C", False, "5C is given twice"),
        ("5C 5C 5H JS", "5S", False, "5C is given twice"),
    ],
)
def test_refuses_wrong_sizes_and_duplicates(hand: str, starter: str, crib: bool, message: str) -> None:
    with pytest.raises(CardError, match=message):
        score_hand(parse_cards(hand, unique=False), parse_card(starter), crib=crib)
    with pytest.raises(CardError, match=message):
        show_total(parse_cards(hand, unique=False), parse_card(starter), crib=crib)


def test_to_json_shape() -> None:
    data = score_hand(parse_cards("5C 5D 5H JS"), parse_card("5S")).to_json()
    assert set(data) == {"total", "items", "spoken"}
    assert data["total"] == 29 == sum(i["points"] for i in data["items"])
    assert {i["kind"] for i in data["items"]} == {"fifteen", "pair", "nobs"}


def test_each_starter_of_the_rest_of_the_pack() -> None:
    hand = parse_cards("5C 5D 5H JS")
    options = each_starter(hand)
    assert sorted(o.starter.name for o in options) == sorted(
        c.name for c in map(Card.from_index, range(52)) if c not in hand)
    assert all(o.hand == tuple(hand) for o in options)
    assert [o.total for o in options] == sorted((o.total for o in options), reverse=True)
    assert {o.starter.name: o.total for o in options}["5S"] == 29
    assert {o.starter.name for o in options if o.total == 22} == {"JH", "JD", "JC"}
    flush = parse_cards("2H 4H 6H 8H")
    hand = {o.starter.name: o.total for o in each_starter(flush)}
    crib = {o.starter.name: o.total for o in each_starter(flush, crib=True)}
    assert (hand["KS"], hand["KH"]) == (4, 5)
    assert (crib["KS"], crib["KH"]) == (0, 5)  # a crib's flush needs the starter's suit


def test_each_of_five_cards_as_the_starter() -> None:
    options = each_starter(parse_cards("3C 4C 5C 6C KH"))
    assert [(o.starter.name, o.total) for o in options][:2] == [("KH", 12), ("3C", 8)]
    assert sorted(o.starter.name for o in options) == ["3C", "4C", "5C", "6C", "KH"]
    for o in options:
        assert o.starter not in o.hand and len(o.hand) == 4


@pytest.mark.parametrize(("cards", "crib", "message"), [
    ("5C 5D", False, "2 cards"), ("5C 5D 5H JS 2D 9C", False, "6 cards"),
    ("5C 5C 5H JS", False, "given twice"), ("5C 5D 5H", True, "a crib holds 4 cards"),
])
def test_each_starter_refuses_what_is_not_a_hand(cards: str, crib: bool, message: str) -> None:
    with pytest.raises(CardError, match=message):
        each_starter(parse_cards(cards, unique=False), crib=crib)
