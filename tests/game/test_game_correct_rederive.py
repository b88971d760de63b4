"""A correction in the middle of the play re-derives what follows it where the rules allow.

A camera misreads cards, so a laid card is often corrected after later cards and goes were
sent. The fold after a correction sets aside a ``go`` event that can no longer have been said
(or that the corrected count made redundant) and infers the goes from the cards instead; the
log keeps the event. Any other event that cannot stand refuses the correction, naming the
event in the players' words, why it cannot stand and what to fix.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cribbage.cards import PACK, parse_card
from cribbage.errors import RuleError
from cribbage.game import Game, Settings
from cribbage.game.simulate import random_game
from cribbage.gamelog import GameStore

from .helpers import explained, new, refused, run

PLAYERS = "Ann,Bob"


def camera(*events: dict[str, Any] | str) -> Game:
    """A two-handed game seen by a camera: no hands known; B deals, the starter is K♥."""
    return run(new(players=PLAYERS), {"type": "dealer", "seat": "B"},
               {"type": "starter", "card": "KH"}, *events)


def correct(number: int, seat: str, card: str) -> dict[str, Any]:
    return {"type": "correct", "event": number, "with": {"type": "play", "seat": seat, "card": card}}


# -- goes set aside -----------------------------------------------------------------------------


def test_goes_made_redundant_by_a_corrected_thirty_one_are_set_aside():
    """5 6 8 K makes 29 and both say go (events 7, 8); the 8♣ was really 10♣, so K♦ made 31:
    the series ended there, and the two goes are set aside (kept in the log)."""
    game = camera("A 5S", "B 6D", "A 8C", "B KD", "A go", "B go", "A 9H")
    assert game.scores == {"A": 0, "B": 1} and game.count == 9

    fixed = run(game, correct(5, "A", "TC"))

    assert fixed.scores == {"A": 0, "B": 2}  # 31 for two, no go point
    assert (fixed.count, fixed.next, fixed.to_json()["series"]) == (9, "B", ["9H"])
    aside = fixed.to_json()["set_aside"]
    assert [(a["event"], a["seat"], a["type"], a["rule"]) for a in aside] == [
        (7, "A", "go", "go"), (8, "B", "go", "turn"),
    ]
    assert aside[0]["reason"] == "A cannot say go: any card fits at a count of 0"
    assert fixed.log[6] == {"type": "go", "seat": "A"}  # the log is append-only
    rows = fixed.rows()
    assert rows[6]["set_aside"] == aside[0]["reason"] and rows[6]["points"] == []
    assert "set_aside" not in rows[5]
    explained(fixed)
    assert Game.replay(fixed.settings, fixed.log).to_json() == fixed.to_json()

    back = run(fixed, {"type": "undo"})  # the goes hold again once the correction is undone
    assert back.to_json()["set_aside"] == [] and back.scores == game.scores


def test_goes_said_where_any_card_now_fits_are_set_aside_and_the_card_laid_in_turn():
    """At 25 Bob said go and Ann took the go; the 5♠ was really A♠, so the count was 21, where
    neither go can have been said: Bob's 9♥ is laid in the same series."""
    game = camera("A TS", "B TD", "A 5S", "B go", "A go", "B 9H")
    assert game.scores == {"A": 1, "B": 2} and game.count == 9

    fixed = run(game, correct(5, "A", "AS"))

    assert fixed.scores == {"A": 0, "B": 2}
    assert (fixed.count, fixed.next) == (30, "A")
    assert [a["event"] for a in fixed.to_json()["set_aside"]] == [6, 7]
    assert fixed.to_json()["set_aside"][0]["reason"] == (
        "B cannot say go: any card fits at a count of 21"
    )
    fixed = run(fixed, "A 9C")  # the play goes on from the corrected game: past 31, a new series
    assert fixed.scores == {"A": 0, "B": 3} and fixed.count == 9


def test_a_go_sent_after_the_correction_is_refused_not_set_aside():
    game = run(camera("A TS", "B TD", "A 5S", "B go", "A go", "B 9H"), correct(5, "A", "AS"),
               "A AC")  # 31: Ann pegs 2 and Bob leads
    assert refused(game, "B go", "go") == "B cannot say go: any card fits at a count of 0"
    assert len(game.log) == 10


def test_a_go_given_by_the_correction_itself_must_hold():
    game = camera("A TS", "B TD", "A 5S", "B go", "A go", "B 9H")
    message = refused(game, {"type": "correct", "event": 4, "with": {"type": "go", "seat": "B"}},
                      "go")
    assert message == (
        "event 4 as corrected, Bob's go, does not hold: B cannot say go: any card fits at a "
        "count of 10"
    )
    fixed = run(game, correct(5, "A", "AS"))  # a go after an earlier correction: the same
    message = refused(fixed, {"type": "correct", "event": 6, "with": {"type": "go", "seat": "A"}},
                      "turn")
    assert message.startswith("event 6 as corrected, Ann's go, does not hold: A cannot say go")


def test_the_log_reopened_sets_the_same_goes_aside(tmp_path):
    with GameStore(tmp_path / "games.db") as store:
        gid = store.new_game({"players": PLAYERS})
        store.apply_many(gid, [
            {"type": "dealer", "seat": "B"}, {"type": "starter", "card": "KH"},
            *({"type": "play", "seat": s, "card": c}
              for s, c in [("A", "5S"), ("B", "6D"), ("A", "8C"), ("B", "KD")]),
            {"type": "go", "seat": "A"}, {"type": "go", "seat": "B"},
        ], source="camera")
        state = store.apply(gid, correct(5, "A", "TC"), source="page")
    with GameStore(tmp_path / "games.db") as store:
        again = store.state(gid)
        rows = store.events(gid)
    assert [a["event"] for a in state["set_aside"]] == [7, 8]
    assert again["set_aside"] == state["set_aside"] and again["scores"] == {"A": 0, "B": 2}
    assert [r["id"] for r in rows if "set_aside" in r] == [7, 8]


# -- what cannot stand: the refusal says what to fix --------------------------------------------


def test_the_issue_a_two_corrected_to_an_ace_names_the_card_that_cannot_follow():
    """10 10 2 makes 22, Bob says go and Ann's 9♥ makes 31. With A♣ for 2♣ the count is 21:
    Bob cannot have passed, so Ann's 9♥ cannot have been laid in her turn."""
    game = camera("A TS", "B TD", "A 2C", "B go", "A 9H")
    message = refused(game, correct(5, "A", "AC"), "turn")
    assert message == (
        "correcting event 5 (Ann's 2♣ to A♣) leaves event 7, Ann's 9♥, unable to stand: "
        "A cannot lay 9H out of turn: it is B's turn, and B cannot have passed (any card "
        "fits at a count of 21). To fix: correct event 7 first, or undo back through it."
    )
    # the fix the message gives works: event 7 was Bob's 9♥ laid in his turn
    fixed = run(game, {"type": "correct", "event": 7,
                       "with": {"type": "play", "seat": "B", "card": "9H"}})
    fixed = run(fixed, correct(5, "A", "AC"))
    assert fixed.scores == {"A": 0, "B": 2} and fixed.count == 30
    assert [a["event"] for a in fixed.to_json()["set_aside"]] == [6]


def test_a_card_past_31_says_the_count_it_would_make():
    """At 25 Bob said go and Ann's 6♣ made 31; with 9♠ for 5♠ the 6♣ would make 35, so the
    series ended before it (Ann took the go) and Bob, not Ann, leads the next one."""
    game = camera("A TS", "B TD", "A 5S", "B go", "A 6C")
    message = refused(game, correct(5, "A", "9S"), "turn")
    assert message.startswith(
        "correcting event 5 (Ann's 5♠ to 9♠) leaves event 7, Ann's 6♣, unable to stand: "
        "the count would be 35, past 31: A cannot lay 6C out of turn: "
    )
    assert message.endswith("To fix: correct event 7 first, or undo back through it.")


def test_a_show_counted_with_a_misread_card_follows_the_correction_of_the_card_laid():
    """Ann counted the hand the camera saw (10♣); the card laid was the 10♥: correcting the
    play carries into the show, which now counts 10♥; undoing the correction brings 10♣ back."""
    game = camera("A 4S", "B 5H", "A 4H", "B 5D", "A 4D", "B 9S", "A TC", "B 2C",
                  {"type": "show", "seat": "A", "cards": ["4S", "4H", "4D", "TC"]})

    fixed = run(game, correct(9, "A", "TH"))

    assert fixed.to_json()["carried"] == [{"event": 11, "from": "TC", "to": "TH"}]
    assert fixed.rows()[10]["carried"] == [{"from": "TC", "to": "TH"}]
    assert (fixed.phase, fixed.next) == ("show", "B")
    assert fixed.log[10]["cards"] == ["4S", "4H", "4D", "TC"]  # the log is append-only
    explained(fixed)
    back = run(fixed, {"type": "undo"})
    assert back.to_json()["carried"] == [] and back.to_json() == {**game.to_json(), "events": 13}


def test_a_misread_card_that_changes_the_count_rescores_the_show():
    """Ann's 4♦ was really a 6♦: her show, counted as 4 4 4 10 (a pair royal), now counts
    4 4 6 10 with the starter K♥, as the engine scores that hand."""
    game = camera("A 4S", "B 5H", "A 4H", "B 5D", "A 4D", "B 9S", "A TC", "B 2C",
                  {"type": "show", "seat": "A", "cards": ["4S", "4H", "4D", "TC"]})
    from cribbage.cards import parse_cards
    from cribbage.show import score_hand

    fixed = run(game, correct(7, "A", "6D"))

    expected = score_hand(parse_cards("4S 4H 6D TC"), parse_card("KH")).total
    shown = sum(a["pegged"] for a in fixed.rows()[10]["points"])
    assert shown == expected and fixed.rows()[10]["carried"] == [{"from": "4D", "to": "6D"}]
    explained(fixed)


def test_a_show_corrected_to_a_card_not_laid_says_to_correct_the_play():
    game = camera("A 4S", "B 5H", "A 4H", "B 5D", "A 4D", "B 9S", "A TC", "B 2C",
                  {"type": "show", "seat": "A", "cards": ["4S", "4H", "4D", "TC"]})
    message = refused(game, {"type": "correct", "event": 11,
                             "with": {"type": "show", "seat": "A", "cards": ["4S", "4H", "4D", "TH"]}},
                      "show")
    assert message.endswith("To fix: a show counts the cards laid; correct the misread card where "
                            "it was laid in the play, and the show follows it")


def test_a_correction_in_one_deal_does_not_touch_the_next_deals_show():
    """Ann's 5♦ of the first deal is corrected to 5♣; in the second deal she lays the 5♦ and
    counts it: only the first deal's show follows the correction."""
    log = [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "KH"},
           {"type": "play", "seat": "A", "card": "5D"},
           {"type": "show", "seat": "A", "cards": ["5D"]},
           {"type": "starter", "card": "QS"},
           {"type": "play", "seat": "A", "card": "5D"},
           {"type": "show", "seat": "A", "cards": ["5D"]},
           {"type": "correct", "event": 3, "with": {"type": "play", "seat": "A", "card": "5C"}}]
    from cribbage.game.game import carry_to_shows, resolve

    events, carried = carry_to_shows(log, resolve(log)[0])
    assert carried == [{"event": 4, "from": "5D", "to": "5C"}]
    assert dict(events)[7]["cards"] == ["5D"]


def test_a_play_after_the_game_is_won_cannot_stand():
    """A correction that wins the game earlier leaves every later event unable to stand."""
    game = run(new(players=PLAYERS), {"type": "dealer", "seat": "B"},
               {"type": "adjust", "seat": "B", "points": 119, "reason": "a long game"},
               {"type": "starter", "card": "KH"}, "A 5S", "B 6D", "A 8C", "B KD", "A go",
               "B go", "A 9H")
    assert game.scores == {"A": 0, "B": 120} and game.phase == "play"
    message = refused(game, correct(6, "A", "TC"), "phase")  # B's 31 takes the game
    assert message.startswith(
        "correcting event 6 (Ann's 8♣ to 10♣) leaves event 10, Ann's 9♥, unable to stand: "
        "the game is over (Bob won)"
    )


# -- properties over random camera games --------------------------------------------------------


def _mid_play(seed: int, *, goes_said: bool) -> Game:
    """A random camera game cut in the first deal's play. ``goes_said``: every go is sent (the
    board's button), else only those the cards cannot show."""
    s = Settings.from_json({"players": PLAYERS})
    _, events = random_game(s, random.Random(seed), hands_known=goes_said)
    events = [e for e in events if e["type"] not in ("hand", "discard")]
    shown = next(i for i, e in enumerate(events) if e["type"] == "show")
    laid = [i for i, e in enumerate(events[:shown]) if e["type"] == "play"]
    rng = random.Random(seed)
    game = Game(s)
    for event in events[: rng.choice(laid[1:]) + 1]:
        game = game.apply(event)
    return game


def _plays(game: Game) -> list[tuple[int, dict[str, Any]]]:
    return [(n, e) for n, e in enumerate(game.log, 1) if e["type"] == "play"]


def _unseen(game: Game) -> list[str]:
    deal = game.deal
    assert deal is not None
    return [c.name for c in PACK if c not in deal.owner]


@pytest.mark.parametrize("seed", range(12))
def test_a_card_corrected_to_one_of_the_same_value_keeps_the_game(seed):
    """The count is unchanged, so every go holds and nothing is set aside; with the same rank
    every score is the same too."""
    game = _mid_play(seed, goes_said=seed % 2 == 0)
    for number, event in _plays(game):
        card = parse_card(event["card"])
        for other in _unseen(game):
            if parse_card(other).value != card.value:
                continue
            fixed = game.apply({"type": "correct", "event": number,
                                "with": {**event, "card": other}})
            assert fixed.to_json()["set_aside"] == []
            assert (fixed.count, fixed.next, fixed.phase) == (game.count, game.next, game.phase)
            if parse_card(other).rank == card.rank:
                assert fixed.scores == game.scores
            explained(fixed)


@pytest.mark.parametrize("seed", range(12))
def test_any_card_corrected_folds_or_says_what_to_fix(seed):
    """Every correction of a laid card to an unseen card folds (only goes set aside, the count
    within 31) or is refused naming the event that cannot stand and the fix."""
    game = _mid_play(seed, goes_said=True)
    rng = random.Random(seed)
    for number, event in _plays(game):
        for other in rng.sample(_unseen(game), 12):
            try:
                fixed = game.apply({"type": "correct", "event": number,
                                    "with": {**event, "card": other}})
            except RuleError as exc:
                text = str(exc)
                if text.startswith(f"event {number} as corrected, "):  # the card itself
                    assert " does not hold: " in text
                else:
                    assert text.startswith(f"correcting event {number} (")
                    assert "unable to stand" in text and "To fix: correct event " in text
                continue
            assert all(fixed.log[a["event"] - 1]["type"] == "go"
                       for a in fixed.to_json()["set_aside"])
            assert 0 <= fixed.count <= 31
            explained(fixed)
            assert Game.replay(fixed.settings, fixed.log).to_json() == fixed.to_json()
