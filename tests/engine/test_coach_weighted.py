"""The weighted crib: the opponent's two crib cards weighed by how often their rank pair is thrown."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

from cribbage.cards import PACK, parse_cards
from cribbage.coach import advise_discards
from cribbage.coach.throws import TABLE_PATH, build_counts, every_pair_key, pair_key
from cribbage.show import show_total

DEALS = ["5H 5S JD QC 2H 9S", "JH 5H 2H 9H TC KS", "7H 8S 5D 5C KS AH", "5S 5H 5D JC 4C 6C"]

RANDOM_THROWER = {key: 6 if key[0] == key[1] else 16 for key in every_pair_key()}
"""The counts a thrower who lays away at random gives in expectation: the pack's card pairs."""


@pytest.mark.parametrize("role", ["dealer", "pone"])
@pytest.mark.parametrize("dealt", DEALS)
def test_a_random_thrower_gives_the_exact_crib(dealt: str, role: str) -> None:
    advice = advise_discards(parse_cards(dealt), role, throws=RANDOM_THROWER, pegging=False)
    assert len(advice.options) == 15
    for o in advice.options:
        assert o.crib_weighted == o.crib


def _brute(discard, dealt, ranks: tuple[int, int]) -> float:
    """Every unseen card pair of ``ranks`` (1-13), every starter left, scored by the show."""
    unseen = [c for c in PACK if c not in dealt]
    scores = []
    for a, b in combinations(unseen, 2):
        if sorted((a.rank, b.rank)) != sorted(ranks):
            continue
        for starter in unseen:
            if starter not in (a, b):
                scores.append(show_total([*discard, a, b], starter, crib=True))
    return sum(scores) / len(scores)


@pytest.mark.parametrize(
    ("dealt", "role", "ranks"),
    [
        ("JH 5H 2H 9H TC KS", "dealer", (3, 7)),  # laying away JH 2H, 3H 7H can make a flush with nobs
        ("5H 5S JD QC 2H 9S", "pone", (5, 11)),  # the opponent's jacks: nobs by any starter suit
        ("7H 8S 5D 5C KS AH", "dealer", (10, 10)),  # a pair of one rank
    ],
)
def test_one_rank_pair_is_the_show_over_its_cards(dealt: str, role: str, ranks: tuple[int, int]) -> None:
    cards = parse_cards(dealt)
    throws = {pair_key(ranks[0] - 1, ranks[1] - 1): 1}
    advice = advise_discards(cards, role, throws=throws, pegging=False)
    for o in advice.options:
        assert o.crib_weighted == pytest.approx(_brute(o.discard, cards, ranks), abs=1e-12)
    assert any(abs(o.crib_weighted - o.crib) > 0.1 for o in advice.options)


def test_the_shipped_table_counts_one_throw_a_deal_and_seat() -> None:
    data = json.loads(TABLE_PATH.read_text())
    deals = data["meta"]["deals"]
    assert deals >= 1000
    for seat in ("dealer", "pone"):
        assert sorted(data[seat]) == sorted(every_pair_key())
        assert sum(data[seat].values()) == deals


def test_building_counts_the_best_throw_of_each_seat() -> None:
    counts = build_counts(12, random.Random(5))
    rng = random.Random(5)
    expected = {seat: dict.fromkeys(every_pair_key(), 0) for seat in ("dealer", "pone")}
    for _ in range(12):
        dealt = rng.sample(PACK, 6)
        for seat in ("dealer", "pone"):
            a, b = advise_discards(dealt, seat, pegging=False).options[0].discard
            expected[seat][pair_key(a.rank - 1, b.rank - 1)] += 1
    assert counts == expected
    assert all(sum(c.values()) == 12 for c in counts.values())


def test_the_opponents_seat_picks_the_table() -> None:
    data = json.loads(TABLE_PATH.read_text())
    cards = parse_cards("5H 5S JD QC 2H 9S")
    for role, opponent in (("dealer", "pone"), ("pone", "dealer")):
        shipped = advise_discards(cards, role, pegging=False).options
        given = advise_discards(cards, role, pegging=False, throws=data[opponent]).options
        assert [o.crib_weighted for o in shipped] == [o.crib_weighted for o in given]
        assert all(o.crib_weighted is not None for o in shipped)
        assert [o.crib for o in shipped] == [o.crib for o in given]


def test_no_weighted_crib_without_a_seat_or_outside_the_six_card_game() -> None:
    assert all(o.crib_weighted is None for o in advise_discards(parse_cards("5H 5S JD QC 2H 9S")).options)
    five = advise_discards(parse_cards("5H 5S JD QC 2H"), "dealer")
    assert all(o.crib_weighted is None for o in five.options)
    assert five.as_dict()["options"][0]["crib_weighted"] is None


def test_a_table_without_throws_gives_no_weighted_crib() -> None:
    options = advise_discards(parse_cards("5H 5S JD QC 2H 9S"), "dealer", throws={}).options
    assert all(o.crib_weighted is None for o in options)


def test_the_rebuild_command_writes_the_table(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from cribbage.coach.throws import main

    out = tmp_path / "throws.json"
    assert main(["--deals", "3", "--seed", "2", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["meta"]["deals"] == 3
    assert data["dealer"] == build_counts(3, random.Random(2))["dealer"]
    assert "3/3" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["--deals", "0", "--out", str(out)])
    assert stop.value.code == 2
