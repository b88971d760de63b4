"""The deal and the play: cut, starter and heels, go, last card, 31, leads, out of cards."""

from __future__ import annotations

from .helpers import explained, new, refused, run

EXAMPLE = ["A 4S", "B 5H", "A 3S", "B 3H", "A 3D", "B 7C", "A go", "B 6D", "A 9C"]
"""RULES.md's worked example of the play: A (pone) pegs 10, B pegs 6."""


def started(**settings):
    return run(new(**settings), {"type": "dealer", "seat": "B"}, {"type": "starter", "card": "KD"})


def test_worked_example_of_the_play():
    game = run(started(), *EXAMPLE)
    assert game.scores == {"A": 10, "B": 6}
    kinds = [(p["seat"], [i["kind"] for i in p["items"]]) for p in game.to_json()["plays"]]
    assert kinds == [
        ("A", []), ("B", []), ("A", ["run"]), ("B", ["fifteen", "pair"]), ("A", ["pair"]),
        ("B", []), ("B", ["thirty-one"]), ("A", ["go"]),
    ]
    assert game.phase == "show" and game.next == "A"
    explained(game)


def test_worked_example_with_the_go_inferred():
    """A camera never hears "go": B laying again at 25 shows that A could not play."""
    inferred = run(started(), *[e for e in EXAMPLE if e != "A go"])
    assert inferred.scores == {"A": 10, "B": 6}
    assert inferred.to_json()["plays"] == run(started(), *EXAMPLE).to_json()["plays"]


def test_worked_example_with_whole_hands_known():
    game = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "A", "cards": ["4S", "3S", "3D", "9C"]},
        {"type": "hand", "seat": "B", "cards": ["5H", "3H", "7C", "6D"]},
        {"type": "starter", "card": "KD"}, *EXAMPLE,
    )
    assert game.scores == {"A": 10, "B": 6}


def test_go_from_a_seat_holding_a_playable_card_is_refused():
    game = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "A", "cards": ["4S", "3S", "3D", "AC"]},
        {"type": "starter", "card": "KD"}, "A 4S", "B 5H", "A 3S", "B 3H", "A 3D", "B 7C",
    )
    message = refused(game, "A go", "go")
    assert "AC" in message
    refused(game, "B 6D", "turn")  # A holds AC, so A cannot have passed


def test_go_at_a_low_count_is_refused_when_hands_are_unknown():
    game = run(started(), "A 4S", "B 5H")
    assert "any card fits" in refused(game, "A go", "go")
    refused(game, "B 6D", "turn")


def test_play_out_of_turn_and_past_31():
    game = run(started(), "A TS", "B KH")
    refused(game, "B 5C", "turn")  # A cannot have passed at 20
    game = run(game, "A QS")  # 30
    # hands unknown: a card past 31 shows that every seat said go (B, then A, who laid last)
    led = run(game, "B 5C")
    assert led.scores == {"A": 1, "B": 0} and led.count == 5 and led.next == "A"
    # B passed over, A's own go ends the series (A pegs 1), B leads and cannot pass at 0
    assert "cannot have passed (the count is 0" in refused(game, "A 5C", "turn")
    known = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "B", "cards": ["KH", "9C", "AC", "2C"]},
        {"type": "starter", "card": "KD"}, "A TS", "B KH", "A QS",
    )
    assert "past 31" in refused(known, "B 9C", "thirty-one")
    after = run(known, "B AC")
    assert after.scores == {"A": 0, "B": 2} and after.count == 0 and after.next == "A"


def test_a_go_said_then_inferred_after_a_count_of_30():
    """At 30 neither can play. B says go; when B leads the next series, A's go is seen."""
    said = run(started(), "A TS", "B KH", "A QS", "B go", "A go", "B 9C")
    assert said.scores == {"A": 1, "B": 0}  # A laid last
    assert said.to_json()["series"] == ["9C"] and said.next == "A"
    seen = run(started(), "A TS", "B KH", "A QS", "B go", "B 9C")
    assert seen.to_json()["plays"] == said.to_json()["plays"]
    assert seen.scores == said.scores


def test_thirty_one_resets_and_the_next_seat_leads():
    game = run(started(), "A TS", "B KH", "A 5S", "B 6H")
    assert game.count == 0 and game.next == "A"
    assert [a.item.kind for a in game.last] == ["thirty-one"]
    assert game.scores == {"A": 0, "B": 2}


def test_a_player_out_of_cards_drops_out_and_the_last_card_pegs():
    game = run(started(), "A TS", "B TH", "A 5S", "B 6H", "A 2S", "B KS", "A AS")
    assert game.to_json()["hands"]["A"]["left"] == 0
    assert game.next == "B"
    game = run(game, "B QS")
    assert game.phase == "show"
    assert game.scores == {"A": 0, "B": 2 + 2 + 1}
    assert [a.item.kind for a in game.last] == ["go"]


def test_a_fifth_card_in_a_hand_is_refused():
    game = run(started(), "A TS", "B TH", "A 5S", "B 6H", "A 2S", "B KS", "A AS")
    refused(game, "A 3C", "hand-size")


def test_a_card_seen_twice_in_a_deal_is_refused():
    game = run(started(), "A TS")
    refused(game, "B TS", "card-seen")
    refused(game, "B KD", "card-seen")  # the starter
    hands = run(new(), {"type": "dealer", "seat": "A"},
                {"type": "hand", "seat": "A", "cards": ["5C", "5D", "JS", "6H", "2C", "9D"]})
    refused(hands, {"type": "hand", "seat": "B", "cards": ["5C", "4D", "4S", "7H", "7C", "9H"]},
            "card-seen")
    refused(hands, {"type": "starter", "card": "9D"}, "card-seen")
    refused(hands, {"type": "discard", "seat": "A", "cards": ["2C", "9S"]}, "not-in-hand")
    hands = run(hands, {"type": "discard", "seat": "A", "cards": ["2C", "9D"]},
                {"type": "starter", "card": "KD"})
    refused(hands, "B 9D", "card-seen")  # in the crib
    refused(hands, "A 7D", "not-in-hand")
    refused(hands, "A 5C", "turn")  # B, the pone, leads
    refused(hands, "B 5C", "card-seen")


def test_hand_sizes():
    game = run(new(), {"type": "dealer", "seat": "A"})
    refused(game, {"type": "hand", "seat": "B", "cards": ["5C", "5D", "JS", "6H", "2C"]},
            "hand-size")
    game = run(game, {"type": "hand", "seat": "B", "cards": ["5C", "5D", "JS", "6H"]})
    refused(game, {"type": "hand", "seat": "B", "cards": ["7C", "7D", "7S", "7H"]}, "hand")
    refused(game, {"type": "discard", "seat": "A", "cards": ["7C"]}, "hand-size")
    game = run(game, {"type": "starter", "card": "KD"})
    refused(game, "B 9C", "not-in-hand")


def test_heels_pegs_two_to_the_dealer_at_once():
    game = run(new(), {"type": "dealer", "seat": "B"}, {"type": "starter", "card": "JC"})
    assert game.scores == {"A": 0, "B": 2}
    assert game.last[0].item.kind == "heels" and game.phase == "play"


def test_heels_can_win_the_game():
    game = run(new(), {"type": "dealer", "seat": "B"},
               {"type": "adjust", "seat": "B", "points": 120, "reason": "test"})
    game = run(game, {"type": "starter", "card": "JC"})
    assert game.winner == "B" and game.scores["B"] == 121 and game.phase == "over"
    assert game.last[0].pegged == 1 and game.last[0].item.points == 2
    refused(game, "A 5C", "phase")


WIN_WITH_31 = [  # Dee deals in a game of 61; Ann at 60 makes 31 with a pair
    {"type": "dealer", "seat": "B"},
    {"type": "adjust", "seat": "A", "points": 60, "reason": "test"},
    {"type": "starter", "card": "2C"},
    "A TS", "B KH", "A 5C", "B 3D",
]


def test_a_thirty_one_at_60_of_61_is_two_and_the_game():
    """The peg moves one hole, into the game hole; the award is thirty-one for two, and the
    pair scored with it is kept (pegged 0, the game being won) so it is said too."""
    game = run(new(target=61, players="Ann,Dee"), *WIN_WITH_31, "A 3S")
    assert game.winner == "A" and game.phase == "over" and game.scores == {"A": 61, "B": 0}
    said = [(a.item.kind, a.item.points, a.pegged) for a in game.last]
    assert said == [("thirty-one", 2, 1), ("pair", 2, 0)]
    explained(game)
    refused(game, "B 4H", "phase")


def test_cut_for_deal_and_three_for_last():
    game = run(new(), {"type": "cut", "cards": {"A": "9H", "B": "4C"}})
    assert game.dealer == "B" and game.phase == "deal"
    tie = run(new(), {"type": "cut", "cards": {"A": "9H", "B": "9C"}})
    assert tie.phase == "cut" and tie.to_json()["cuts"][-1]["tie"]
    again = run(tie, {"type": "cut", "cards": {"A": "AH", "B": "2C"}})
    assert again.dealer == "A"
    old = run(new(three_for_last=True), {"type": "dealer", "seat": "A"})
    assert old.scores == {"A": 0, "B": 3}
    assert old.last[0].item.kind == "three-for-last"


def test_three_player_cut_only_the_tied_cut_again():
    """Ann 7♠, Ben 7♥, Cat K♦: only Ann and Ben cut again, the lower of them deals; Cat, who
    lost the first cut, can neither cut again nor deal from it."""
    three = new(variant="three-player", players="Ann,Ben,Cat")
    assert three.cutting == ["A", "B", "C"]
    refused(three, {"type": "cut", "cards": {"A": "7S", "B": "7H"}}, "event")  # Cat's is missing
    tie = run(three, {"type": "cut", "cards": {"A": "7S", "B": "7H", "C": "KD"}})
    assert tie.phase == "cut" and tie.cutting == ["A", "B"]
    assert tie.to_json()["cuts"][-1] == {"cards": {"A": "7S", "B": "7H", "C": "KD"}, "tie": True,
                                         "again": ["A", "B"], "dealer": None}
    message = refused(tie, {"type": "cut", "cards": {"A": "9S", "B": "8H", "C": "AH"}}, "event")
    assert message == "only A and B cut again (equal lowest cuts), not C"
    assert "missing ['B']" in refused(tie, {"type": "cut", "cards": {"A": "9S"}}, "event")
    again = run(tie, {"type": "cut", "cards": {"A": "9S", "B": "8H"}})
    assert again.dealer == "B" and again.phase == "deal" and again.cutting == []
    assert again.to_json()["cuts"][-1]["dealer"] == "B"
    # a second tie: the same two cut once more
    twice = run(tie, {"type": "cut", "cards": {"A": "QS", "B": "QH"}})
    assert twice.cutting == ["A", "B"]
    assert run(twice, {"type": "cut", "cards": {"A": "2S", "B": "3H"}}).dealer == "A"
    # a tie between two of four is settled between those two
    four = run(new(variant="four-player", players="Ann,Ben,Cat,Dan"),
               {"type": "cut", "cards": {"A": "5S", "B": "9H", "C": "5D", "D": "2H"}})
    assert four.dealer == "D"


def test_events_in_the_wrong_phase():
    game = new()
    refused(game, {"type": "starter", "card": "5H"}, "phase")
    refused(game, "A 5H", "phase")
    game = run(game, {"type": "dealer", "seat": "A"})
    refused(game, {"type": "dealer", "seat": "B"}, "phase")
    refused(game, "B 5H", "phase")
    refused(game, {"type": "show", "seat": "B", "cards": ["5H", "6H", "7H", "8H"]}, "phase")
    game = run(game, {"type": "starter", "card": "5H"})
    refused(game, {"type": "starter", "card": "6H"}, "phase")
    refused(game, {"type": "hand", "seat": "B", "cards": ["5C", "5D", "JS", "6H"]}, "phase")
    refused(game, {"type": "crib", "cards": ["5C", "5D", "JS", "6C"]}, "phase")


def test_malformed_events_are_refused():
    import pytest

    from cribbage.errors import CribbageError

    game = started()
    for bad in [{"type": "play", "seat": "Z", "card": "5H"}, {"type": "play", "seat": "A"},
                {"type": "fly"}, {"type": "play", "seat": "A", "card": "1X"}, ["play"],
                {"type": "adjust", "seat": "A", "points": -2},
                {"type": "correct", "event": 1, "with": {"type": "undo"}}]:
        with pytest.raises(CribbageError):
            game.apply(bad)


def test_a_go_from_a_seat_out_of_cards_is_refused():
    game = run(started(), "A TS", "B TH", "A 5S", "B 6H", "A 2S", "B KS", "A AS")
    refused(game, "A go", "go")


def test_a_go_is_judged_on_the_dealt_hand_when_the_discards_are_unknown():
    game = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "A", "cards": ["9S", "8S", "2D", "3D", "4D", "KC"]},
        {"type": "starter", "card": "KD"}, "A 9S", "B TH", "A 8S", "B go",  # 27
    )
    # A keeps 2 of 2D 3D 4D KC (two were laid away): at most one is too big, so one fits
    assert "holds 2 of" in refused(game, "A go", "go")
    assert run(game, "A 4D").scores == {"A": 3 + 2, "B": 0}  # a run of three, then 31


def test_every_table_event_has_its_handler_and_every_handler_an_event():
    from cribbage.game.events import META_TYPES, TABLE_TYPES
    from cribbage.game.game import HANDLERS, Game

    assert list(HANDLERS) == list(TABLE_TYPES)
    assert not set(HANDLERS) & set(META_TYPES)
    for kind, handler in HANDLERS.items():
        assert getattr(Game, handler.__name__) is handler, kind
        assert handler.__name__ == "_on_" + kind.replace("-", "_")
