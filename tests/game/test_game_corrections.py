"""Corrections and undo: new events that supersede old ones; the game folds again."""

from __future__ import annotations

from cribbage.game import Game

from .helpers import explained, new, refused, run

PLAY = ["A 4S", "B 5H", "A 4H", "B 5D", "A 4D", "B 9S", "A TC", "B 2C"]


def dealt():
    return run(new(), {"type": "dealer", "seat": "B"}, {"type": "starter", "card": "JC"}, *PLAY)


def test_a_misread_starter_is_corrected_and_every_later_score_recomputed():
    game = run(dealt(), {"type": "show", "seat": "A"})
    assert game.scores == {"A": 6, "B": 5}  # B: heels 2 and 3 in the play; A a pair royal
    fixed = run(game, {"type": "correct", "event": 2, "with": {"type": "starter", "card": "AC"}})
    assert fixed.scores == {"A": 12, "B": 3}  # no heels; the ace makes three fifteens more
    assert fixed.superseded == {2: 12}
    assert len(fixed.log) == 12 and fixed.log[1] == {"type": "starter", "card": "JC"}
    explained(fixed)


def test_a_wrong_seat_is_corrected():
    game = run(new(), {"type": "dealer", "seat": "B"},
               {"type": "adjust", "seat": "A", "points": 2, "reason": "misdeal"})
    fixed = run(game, {"type": "correct", "event": 2,
                       "with": {"type": "adjust", "seat": "B", "points": 2, "reason": "misdeal"}})
    assert (game.scores, fixed.scores) == ({"A": 2, "B": 0}, {"A": 0, "B": 2})


def test_a_correction_that_breaks_a_later_event_is_refused():
    game = dealt()
    # 4S as the starter would make A's first card a card seen twice
    message = refused(
        game, {"type": "correct", "event": 2, "with": {"type": "starter", "card": "4S"}},
        "card-seen",
    )
    assert "event 3" in message
    refused(game, {"type": "correct", "event": 99, "with": {"type": "starter", "card": "AC"}},
            "correct")


def test_undo_cancels_the_latest_event_and_scores_fall_back():
    game = run(dealt(), {"type": "show", "seat": "A"})
    undone = run(game, {"type": "undo"})
    assert undone.phase == "show" and undone.scores == {"A": 0, "B": 5}
    again = run(undone, {"type": "undo"})  # B's 2C, which took last card
    assert again.phase == "play" and again.next == "B" and again.scores == {"A": 0, "B": 4}
    redone = run(again, "B 2C", {"type": "show", "seat": "A"})
    assert redone.scores == game.scores
    assert redone.superseded == {10: 13, 11: 12}


def test_undo_of_a_correction_brings_the_event_back():
    game = dealt()
    fixed = run(game, {"type": "correct", "event": 2, "with": {"type": "starter", "card": "AC"}})
    back = run(fixed, {"type": "undo"})
    assert back.scores == game.scores
    refused(back, {"type": "correct", "event": 11, "with": {"type": "starter", "card": "AC"}},
            "correct")  # a correction is corrected by correcting the event itself


def test_nothing_to_undo_and_undone_events_cannot_be_corrected():
    refused(new(), {"type": "undo"}, "undo")
    game = run(new(), {"type": "dealer", "seat": "B"}, {"type": "undo"})
    assert game.phase == "cut"
    refused(game, {"type": "correct", "event": 1, "with": {"type": "dealer", "seat": "A"}},
            "correct")
    refused(game, {"type": "undo"}, "undo")


def test_undo_and_correct_after_the_game_is_over():
    game = run(new(), {"type": "dealer", "seat": "B"},
               {"type": "adjust", "seat": "A", "points": 121})
    assert game.phase == "over"
    back = run(game, {"type": "undo"})
    assert back.phase == "deal" and back.winner is None and back.scores == {"A": 0, "B": 0}


def test_replay_of_the_log_is_the_same_game():
    game = run(dealt(), {"type": "correct", "event": 2, "with": {"type": "starter", "card": "AC"}},
               {"type": "show", "seat": "A"}, {"type": "undo"}, {"type": "show", "seat": "A"})
    assert Game.replay(game.settings, game.log).to_json() == game.to_json()
