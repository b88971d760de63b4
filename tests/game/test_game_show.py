"""The show in order, the crib, the next deal, the end of the game, skunks, misdeals."""

from __future__ import annotations

import pytest

from cribbage.cards import parse_card, parse_cards
from cribbage.game import settings
from cribbage.show import score_hand

from .helpers import explained, new, refused, run

PLAY = ["A 4S", "B 5H", "A 4H", "B 5D", "A 4D", "B 9S", "A TC", "B 2C"]
CRIB = ["KS", "QS", "JH", "3D"]


def played(**settings):
    """Deal 1, B deals, starter AC; both hands laid out: A pegs 0, B 31 (2) and last card (1)."""
    return run(
        new(**settings), {"type": "dealer", "seat": "B"}, {"type": "starter", "card": "AC"}, *PLAY
    )


def test_the_play_before_the_show():
    game = played()
    assert game.scores == {"A": 0, "B": 3} and game.phase == "show" and game.next == "A"


def test_the_show_pone_dealer_crib_then_the_next_deal():
    game = played()
    refused(game, {"type": "show", "seat": "B"}, "show-order")
    refused(game, {"type": "crib", "cards": CRIB}, "show-order")
    game = run(game, {"type": "show", "seat": "A"})  # the hand is known: all four laid
    assert game.scores["A"] == 12  # A 4 4 4 10: fifteen six and a pair royal
    assert game.to_json()["shows"][0]["spoken"].endswith("twelve")
    refused(game, {"type": "show", "seat": "B", "cards": ["5H", "5D", "9S", "3C"]}, "show")
    game = run(game, {"type": "show", "seat": "B", "cards": ["9S", "2C", "5D", "5H"]})
    b_hand = score_hand(parse_cards("5H 5D 9S 2C"), parse_card("AC")).total
    assert game.scores["B"] == 3 + b_hand
    refused(game, {"type": "crib"}, "show")  # the crib was never seen: show its cards
    refused(game, {"type": "crib", "cards": ["KS", "QS", "JH", "4S"]}, "card-seen")
    game = run(game, {"type": "crib", "cards": CRIB})
    crib = score_hand(parse_cards(CRIB), parse_card("AC"), crib=True).total
    assert game.scores["B"] == 3 + b_hand + crib
    state = game.to_json()
    assert state["phase"] == "deal" and state["dealer"] == "A" and state["deal"] == 2
    assert state["history"][0]["points"]["B"] == {"play": 3, "show": b_hand, "crib": crib}
    assert state["starter"] is None and state["count"] == 0
    explained(game)


def test_a_known_hand_is_counted_without_its_cards_and_checked_with_them():
    game = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "A", "cards": ["4S", "4H", "4D", "TC", "KH", "KC"]},
        {"type": "discard", "seat": "A", "cards": ["KH", "KC"]},
        {"type": "starter", "card": "AC"}, *PLAY,
    )
    refused(game, {"type": "show", "seat": "A", "cards": ["4S", "4H", "4D", "KH"]}, "show")
    assert run(game, {"type": "show", "seat": "A"}).scores["A"] == 12
    game = run(game, {"type": "show", "seat": "A"}, {"type": "show", "seat": "B",
                                                      "cards": ["9S", "2C", "5D", "5H"]})
    refused(game, {"type": "crib", "cards": ["QH", "QS", "JH", "3D"]}, "show")  # KH laid away


def test_the_game_ends_in_the_show_before_the_dealer_counts():
    game = run(played(), {"type": "adjust", "seat": "A", "points": 115, "reason": "test"},
               {"type": "adjust", "seat": "B", "points": 117, "reason": "test"})
    game = run(game, {"type": "show", "seat": "A"})
    assert game.winner == "A" and game.scores == {"A": 121, "B": 120}
    assert game.phase == "over" and game.skunk is None
    refused(game, {"type": "show", "seat": "B", "cards": ["9S", "2C", "5D", "5H"]}, "phase")


def test_the_game_ends_in_the_play_the_moment_the_target_is_reached():
    game = run(new(), {"type": "dealer", "seat": "B"},
               {"type": "adjust", "seat": "B", "points": 119, "reason": "test"},
               {"type": "starter", "card": "KC"}, "A 5S")
    game = run(game, "B TS")
    assert game.winner == "B" and game.scores["B"] == 121 and game.phase == "over"
    refused(game, "A 5D", "phase")
    refused(game, {"type": "adjust", "seat": "A", "points": 1}, "phase")
    state = game.to_json()
    assert state["history"][-1]["deal"] == 1  # the deal the game ended in is kept


def _won(target, loser_points):
    game = run(new(target=target), {"type": "dealer", "seat": "A"})
    if loser_points:
        game = run(game, {"type": "adjust", "seat": "B", "points": loser_points})
    return run(game, {"type": "adjust", "seat": "A", "points": target})


def test_skunk_lines_at_121():
    assert _won(121, 91).skunk is None
    assert _won(121, 90).skunk == "skunk"
    assert _won(121, 61).skunk == "skunk"
    assert _won(121, 60).skunk == "double"
    assert _won(121, 60).to_json()["game_points"] == 4
    assert _won(121, 90).to_json()["game_points"] == 2
    assert _won(121, 100).to_json()["game_points"] == 1


def test_skunk_line_at_61_follows_rules_md():
    assert _won(61, 31).skunk is None
    assert _won(61, 30).skunk == "skunk"
    assert _won(61, 0).skunk == "skunk"  # no double line in a 61-point game
    assert _won(61, 0).to_json()["skunk_lines"] == {"skunk": 31, "double": None}


def test_the_game_reads_its_skunk_lines_from_the_settings(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(settings.SKUNK_LINES, 121, (101, 71))
    assert _won(121, 100).skunk == "skunk"
    assert _won(121, 101).skunk is None
    assert _won(121, 70).skunk == "double"
    assert _won(121, 70).to_json()["skunk_lines"] == {"skunk": 101, "double": 71}


def test_misdeal_voids_the_deal_and_pegs_two_to_the_pone():
    game = run(new(), {"type": "dealer", "seat": "B"},
               {"type": "hand", "seat": "A", "cards": ["4S", "4H", "4D", "TC", "KH", "KC"]})
    game = run(game, {"type": "misdeal"})
    state = game.to_json()
    assert state["scores"] == {"A": 2, "B": 0} and state["dealer"] == "B"
    assert state["deal"] == 2 and state["history"][0]["misdeal"]
    assert state["hands"]["A"]["dealt"] is None  # the cards go back: a fresh deal
    game = run(game, {"type": "hand", "seat": "A", "cards": ["4S", "4H", "4D", "TC"]})
    refused(game.apply({"type": "starter", "card": "5C"}), {"type": "misdeal"}, "phase")


def test_pegs_leapfrog():
    game = run(played(), {"type": "show", "seat": "A"})
    assert game.to_json()["pegs"]["A"] == [12, 0]
    game = run(game, {"type": "adjust", "seat": "A", "points": 2, "reason": "misdeal"})
    assert game.to_json()["pegs"]["A"] == [14, 12]
    assert game.to_json()["pegs"]["B"] == [3, 2]  # 31 for two, then last card


def test_new_deal_is_a_marker_that_checks_whose_deal_it_is():
    game = run(new(), {"type": "dealer", "seat": "B"})
    refused(game, {"type": "new-deal", "dealer": "A"}, "deal-turn")
    game = run(game, {"type": "new-deal", "dealer": "B"}, {"type": "new-deal"})
    assert game.phase == "deal" and game.dealer == "B" and game.to_json()["deal"] == 1
    game = run(game, {"type": "hand", "seat": "A", "cards": ["4S", "4H", "4D", "TC"]})
    refused(game, {"type": "new-deal"}, "phase")
    refused(new(), {"type": "new-deal"}, "phase")
