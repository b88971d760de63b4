"""Card notation: every accepted spelling, the canonical form, and clear errors."""

import pytest

from cribbage.cards import PACK, Card, parse_card, parse_cards
from cribbage.errors import CardError, CribbageError


@pytest.mark.parametrize(
    ("token", "name"),
    [
        ("TD", "TD"),
        ("10d", "TD"),
        ("10D", "TD"),
        ("td", "TD"),
        ("5♥", "5H"),
        ("5h", "5H"),
        ("A♠", "AS"),
        ("as", "AS"),
        ("J♣", "JC"),
        ("q♦", "QD"),
        ("K♤", "KS"),
        (" 7c ", "7C"),
    ],
)
def test_every_accepted_spelling(token: str, name: str) -> None:
    assert parse_card(token).name == name


@pytest.mark.parametrize("token", ["", "1H", "11H", "ZZ", "5", "H5", "5HH", "10", "0S", "5X", None, 5.0])
def test_bad_tokens_name_themselves(token: object) -> None:
    with pytest.raises(CardError) as info:
        parse_card(token)  # type: ignore[arg-type]
    assert repr(token) in str(info.value)
    assert isinstance(info.value, CribbageError) and isinstance(info.value, ValueError)


def test_the_pack() -> None:
    assert len(PACK) == 52 == len({c.name for c in PACK})
    assert [c.index for c in PACK] == list(range(52))
    for card in PACK:
        assert Card(card.name) is card
        assert Card.from_index(card.index) is card
        assert Card.of(card.rank, card.suit) is card
        assert card.value == min(card.rank, 10)


def test_card_properties() -> None:
    queen = Card("QH")
    assert (queen.rank, queen.suit, queen.value) == (12, 1, 10)
    assert queen.symbol == "Q♥" and Card("TD").symbol == "10♦"
    assert Card("5C").words == "five of clubs"
    with pytest.raises(AttributeError):
        queen.rank = 3  # type: ignore[misc]


def test_parse_cards_separators_and_duplicates() -> None:
    assert [c.name for c in parse_cards("5c, 5d  5h,JS")] == ["5C", "5D", "5H", "JS"]
    assert [c.name for c in parse_cards(["10h", "JH"])] == ["TH", "JH"]
    with pytest.raises(CardError, match="5C is given twice"):
        parse_cards("5C 5c")
    assert len(parse_cards("5C 5c", unique=False)) == 2


def test_pickle_round_trip_keeps_identity() -> None:
    import pickle

    assert pickle.loads(pickle.dumps(Card("9S"))) is Card("9S")
