"""The play: the worked example of RULES.md, each combination, go, 31, turns and refusals."""

from __future__ import annotations

import pytest

from cribbage.cards import parse_card, parse_cards
from cribbage.errors import RuleError
from cribbage.play import Play, score_lay, seat_letter, seat_number


def lay_all(play: Play, moves: str) -> list[str]:
    """Apply moves like 'A:4S B:go'; return the awards as strings."""
    awards = []
    for move in moves.split():
        seat, what = move.split(":")
        if what == "go":
            awards += play.go(seat_number(seat))
        else:
            awards += play.lay(seat_number(seat), parse_card(what))
    return [str(a) for a in awards]


def test_worked_example_from_the_rules() -> None:
    play = Play(2)
    lay_all(play, "A:4S B:5H A:3C B:3D A:3S B:7C A:go B:6D A:9H")
    play.finish()
    assert play.totals() == {0: 10, 1: 6}
    points = [(seat_letter(e.seat), e.card.name, e.count, e.points) for e in play.entries]
    assert points == [
        ("A", "4S", 4, 0),
        ("B", "5H", 9, 0),
        ("A", "3C", 12, 3),
        ("B", "3D", 15, 4),
        ("A", "3S", 18, 6),
        ("B", "7C", 25, 0),
        ("B", "6D", 31, 2),
        ("A", "9H", 9, 1),
    ]


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("5S 8H 5C", []),  # an intervening card breaks a pair
        ("2S 3H 8C 4D", []),  # and a run
        ("5S 4H 3C", [("run", 3)]),
        ("5S 4H 2C 2D", [("pair", 2)]),  # a run of three then a pair, not a run
        ("5S 4H 3C 3D", [("fifteen", 2), ("pair", 2)]),
        ("7S 8H", [("fifteen", 2)]),
        ("9S 9H", [("pair", 2)]),
        ("9S 9H 9C", [("pair", 6)]),
        ("2S 2H 2C 2D", [("pair", 12)]),
        ("5S 5H 5C", [("fifteen", 2), ("pair", 6)]),
        ("KS QH JC TD", [("run", 4)]),
        ("AS 3H 2C 5D 4S", [("fifteen", 2), ("run", 5)]),
        ("3S 5H 4C 6D 2S", [("run", 5)]),
        ("QS KH AC", []),  # aces are low: Q-K-A is no run
        ("KS QH JC AD", [("thirty-one", 2)]),  # K-Q-J then an ace: no run
        ("KS QH 8C 3D", [("thirty-one", 2)]),
        ("KS QH TC AD", [("thirty-one", 2)]),
        ("5S 5H 5C 5D AS TS", [("thirty-one", 2)]),
        ("AS 2H 3C AD", [("run", 3)]),  # 2-3-A in any order
        ("4S 6H 5C", [("fifteen", 2), ("run", 3)]),
    ],
)
def test_score_lay(cards: str, expected: list[tuple[str, int]]) -> None:
    assert [(i.kind, i.points) for i in score_lay(parse_cards(cards))] == expected


def test_go_then_the_other_lays_on_and_takes_last_card() -> None:
    play = Play(2)
    lay_all(play, "A:TS B:KH A:8D")  # 28
    assert lay_all(play, "B:go") == []
    assert play.next_seat == 0  # A keeps laying while it can
    assert lay_all(play, "A:2C") == []
    assert play.count == 30
    assert lay_all(play, "A:go") == ["A: go (2C) 1"]
    assert play.count == 0 and play.next_seat == 1  # the seat after the last to lay leads


def test_thirty_one_scores_two_and_no_go() -> None:
    play = Play(2)
    assert lay_all(play, "A:KS B:QH A:8C B:3D") == ["B: thirty-one (KS QH 8C 3D) 2"]
    assert play.count == 0 and play.next_seat == 0 and play.gone == set()


def test_last_card_of_the_play_when_the_final_go_is_left_out() -> None:
    play = Play(2)
    lay_all(play, "A:4S B:5H")
    assert [str(a) for a in play.finish()] == ["B: go (5H) 1"]
    assert play.over and play.next_seat is None
    assert play.finish() == []


def test_refusals_leave_the_play_unchanged() -> None:
    play = Play(2)
    lay_all(play, "A:TS B:KH A:9D")
    before = (play.count, list(play.series), play.next_seat, len(play.entries))
    with pytest.raises(RuleError, match="past 31") as info:
        play.lay(1, parse_card("5C"))
    assert info.value.rule == "thirty-one"
    with pytest.raises(RuleError, match="out of turn") as info:
        play.lay(0, parse_card("AC"))
    assert info.value.rule == "turn"
    with pytest.raises(RuleError, match="already been laid"):
        play.lay(1, parse_card("TS"))
    with pytest.raises(RuleError, match="out of turn"):
        play.go(0)
    assert (play.count, list(play.series), play.next_seat, len(play.entries)) == before


def test_a_seat_lays_twice_only_after_the_other_said_go() -> None:
    play = Play(2)
    lay_all(play, "A:4S")
    with pytest.raises(RuleError, match="A cannot lay 5H out of turn: it is B's turn"):
        play.lay(0, parse_card("5H"))
    lay_all(play, "B:go")
    lay_all(play, "A:5H")
    assert play.count == 9


def test_three_players_pass_to_the_left_and_the_last_to_lay_takes_go() -> None:
    play = Play(3)
    lay_all(play, "A:TS B:TH C:5C")  # 25
    assert lay_all(play, "A:go B:go") == []
    assert play.next_seat == 2
    assert lay_all(play, "C:4D") == []  # 29
    assert lay_all(play, "C:go") == ["C: go (4D) 1"]
    assert play.next_seat == 0  # the seat after C


def test_everyone_out_of_cards_ends_the_play() -> None:
    play = Play(2)
    lay_all(play, "A:4S B:5H A:go B:go")
    assert play.count == 0 and not play.over
    lay_all(play, "A:go B:go")
    assert play.over


def test_five_card_game_single_series() -> None:
    play = Play(2, single_series=True)
    assert lay_all(play, "A:TS B:KH A:9D B:go A:go") == ["A: go (9D) 1"]
    assert play.over
    with pytest.raises(RuleError, match="the play is over"):
        play.lay(1, parse_card("AC"))


def test_seats() -> None:
    assert seat_letter(0) == "A" and seat_number("c") == 2
    with pytest.raises(RuleError):
        seat_number("AB")
    with pytest.raises(RuleError):
        Play(1)
    with pytest.raises(RuleError, match="no seat C"):
        Play(2).lay(2, parse_card("AS"))
