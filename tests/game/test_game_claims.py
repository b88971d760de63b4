"""Claim counting and muggins: under-claims open to a call, over-claims refused or pegged."""

from __future__ import annotations

from .helpers import explained, new, refused, run

PLAY = ["A 4S", "B 5H", "A 4H", "B 5D", "A 4D", "B 9S", "A TC", "B 2C"]


def shown(**settings):
    """Deal 1 laid out (B deals, starter AC); A's hand 4S 4H 4D TC counts 12."""
    return run(new(**settings), {"type": "dealer", "seat": "B"},
               {"type": "starter", "card": "AC"}, *PLAY)


def test_auto_counting_pegs_the_count_whatever_is_claimed():
    game = run(shown(), {"type": "show", "seat": "A", "claim": 8})
    assert game.scores["A"] == 12 and game.pending == []
    assert game.to_json()["shows"][0]["claimed"] == 8


def test_an_under_claim_is_open_to_muggins_with_the_breakdown():
    game = run(shown(counting="claim", muggins=True), {"type": "show", "seat": "A", "claim": 8})
    assert game.scores["A"] == 8
    state = game.to_json()
    chance = state["muggins"][0]
    assert (chance["seat"], chance["points"], chance["claimed"], chance["total"]) == ("A", 4, 8, 12)
    assert chance["callers"] == ["B"] and chance["what"] == "show"
    assert sorted(i["kind"] for i in chance["items"]) == ["fifteen"] * 3 + ["pair"] * 3
    assert state["shows"][0]["missed"] == 4
    refused(game, {"type": "muggins", "seat": "A"}, "muggins")  # not on one's own count
    game = run(game, {"type": "muggins", "seat": "B"})
    assert game.scores == {"A": 8, "B": 3 + 4}
    assert game.last[0].item.kind == "muggins" and game.pending == []
    called = game.to_json()["last"][0]
    assert called["reason"] == "A claimed 8 of 12" and len(called["detail"]) == 6
    refused(game, {"type": "muggins", "seat": "B"}, "muggins")  # only once
    explained(game)


def test_muggins_must_be_called_promptly():
    game = run(shown(counting="claim", muggins=True), {"type": "show", "seat": "A", "claim": 8})
    game = run(game, {"type": "adjust", "seat": "A", "points": 1, "reason": "house"})
    assert game.pending  # an adjustment does not close the window
    game = run(game, {"type": "show", "seat": "B", "cards": ["5H", "5D", "9S", "2C"]})
    assert game.pending == []
    refused(game, {"type": "muggins", "seat": "B"}, "muggins")


def test_without_muggins_missed_points_are_lost():
    game = run(shown(counting="claim"), {"type": "show", "seat": "A", "claim": 8})
    assert game.scores["A"] == 8 and game.pending == []
    refused(game, {"type": "muggins", "seat": "B"}, "muggins")


def test_muggins_needs_claim_counting():
    game = run(shown(muggins=True, counting="auto"), {"type": "show", "seat": "A"})
    assert "automatic" in refused(game, {"type": "muggins", "seat": "B"}, "muggins")


def test_an_over_claim_is_refused_with_the_true_count():
    game = shown(counting="claim", muggins=True)
    message = refused(game, {"type": "show", "seat": "A", "claim": 14}, "over-claim")
    assert "counts 12" in message and "pair" in message


def test_an_over_claim_pegged_as_claimed_at_a_casual_table():
    game = run(shown(counting="claim", overclaim="peg"), {"type": "show", "seat": "A", "claim": 14})
    assert game.scores["A"] == 14
    assert [a.item.kind for a in game.last][-1] == "over-claim"
    explained(game)


def test_claims_in_the_play():
    game = run(new(counting="claim", muggins=True), {"type": "dealer", "seat": "B"},
               {"type": "starter", "card": "KC"}, "A 5S",
               {"type": "play", "seat": "B", "card": "TS", "claim": 0})
    assert game.scores == {"A": 0, "B": 0}
    assert game.pending[0]["what"] == "play" and game.pending[0]["points"] == 2
    game = run(game, {"type": "muggins", "seat": "A"})
    assert game.scores == {"A": 2, "B": 0}
    refused(game, {"type": "play", "seat": "A", "card": "5D", "claim": 1}, "over-claim")
    game = run(game, {"type": "play", "seat": "A", "card": "5D", "claim": 0},
               {"type": "play", "seat": "B", "card": "5H", "claim": 2})
    assert game.scores == {"A": 2, "B": 2} and game.pending == []


def test_a_crib_under_claim():
    game = run(shown(counting="claim", muggins=True), {"type": "show", "seat": "A"},
               {"type": "show", "seat": "B", "cards": ["5H", "5D", "9S", "2C"]},
               {"type": "crib", "cards": ["5S", "TS", "JH", "3D"], "claim": 2})
    chance = game.pending[0]
    assert chance["what"] == "crib" and chance["seat"] == "B" and chance["callers"] == ["A"]
    before = game.scores["A"]
    game = run(game, {"type": "muggins", "seat": "A"})
    assert game.scores["A"] == before + chance["points"]


def test_muggins_on_means_claim_counting_unless_told_otherwise():
    game = run(shown(muggins=True), {"type": "show", "seat": "A", "claim": 10})
    assert game.settings.counting == "claim" and game.scores["A"] == 10
    assert run(game, {"type": "muggins", "seat": "B"}).scores["B"] == 3 + 2
