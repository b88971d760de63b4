"""What a camera sends: laid cards alone (every go inferred) and events carrying ``seen``.

A card that does not fit the count shows that every seat said go: the series ended (the last
to lay pegs 1 for last card), the count restarted and the card leads or follows in the new
series. A go that cannot have been said is refused, as when it is said.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribbage.game import Game, Settings
from cribbage.game.events import SEEN_TYPES
from cribbage.game.simulate import random_game
from cribbage.gamelog import GameStore

from .helpers import explained, new, refused, run

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
SERIES_VARIANTS = ["six-card", "three-player", "four-player"]
"""The variants whose play goes on after a go (five-card's play is one series)."""


def started(*events: dict[str, Any] | str, **settings_: Any) -> Game:
    """Two players, B deals (A is the pone), the starter KD, then ``events``."""
    return run(new(**settings_), {"type": "dealer", "seat": "B"},
               {"type": "starter", "card": "KD"}, *events)


def _state(game: Game) -> dict[str, Any]:
    """The state JSON without what depends on how the points were split between events: how
    many were sent, the latest awards, and the back pegs (each event moves a peg once, so a
    go point and a card's points pegged by one event move it once, by two events twice)."""
    skip = ("events", "last_event", "last", "pegs")
    return {k: v for k, v in game.to_json().items() if k not in skip}


def plays(game: Game) -> list[tuple[str, str, int, list[str]]]:
    """Every card laid this deal: seat, card, count after it, kinds it scored."""
    return [(p["seat"], p["card"], p["count"], [i["kind"] for i in p["items"]])
            for p in game.to_json()["plays"]]


# -- a card that does not fit ends the series -----------------------------------------------


def test_a_card_past_31_shows_both_goes_and_leads_the_next_series():
    """At 28 with B to play, B lays 9C: B said go, A said go, A pegs 1, B leads with 9C."""
    at_28 = started("A TS", "B 8S", "A QS")
    assert at_28.count == 28 and at_28.next == "B"
    seen = run(at_28, "B 9C")
    assert seen.scores == {"A": 1, "B": 0}
    assert seen.count == 9 and seen.to_json()["series"] == ["9C"] and seen.next == "A"
    assert plays(seen) == [("A", "TS", 10, []), ("B", "8S", 18, []), ("A", "QS", 28, ["go"]),
                           ("B", "9C", 9, [])]
    assert [(a.to_json()["seat"], a.item.kind) for a in seen.last] == [("A", "go")]
    said = run(at_28, "B go", "A go", "B 9C")
    assert _state(seen) == _state(said)
    explained(seen)


def test_the_seat_that_laid_last_lays_again_after_the_other_said_go():
    """A laid last at 25 and B said go: A's 10 shows A's own go; A pegs 1 and B leads, and B
    cannot have passed at a count of 0."""
    game = started("A 5S", "B TS", "A QH", "B go")
    assert game.count == 25 and game.next == "A" and game.scores == {"A": 0, "B": 2}
    message = refused(game, "A KC", "turn")
    assert message == (
        "A cannot lay KC out of turn: KC does not fit at a count of 25, so every seat said go "
        "and the count restarted; it is B's turn, and B cannot have passed (the count is 0, "
        "so any card fits)"
    )
    # the same refusal when A's go is said: the game is the same either way
    assert "cannot have passed (the count is 0" in refused(run(game, "A go"), "A KC", "turn")
    assert run(game, "A go").scores == {"A": 1, "B": 2}


def test_when_the_others_are_out_of_cards_the_last_to_lay_leads_the_next_series():
    """Three players, C deals: A and B have laid every card; C laid last at 30 and lays 7D."""
    game = run(
        new(variant="three-player"), {"type": "dealer", "seat": "C"},
        {"type": "starter", "card": "5D"},
        "A KH", "B 2S", "C 4H", "A QH", "B 3S", "C go", "A 2H",  # 31: A pegs 2
        "B 6D", "C 6H", "A TD", "B 5S", "C 3H",  # 30; A and B are out of cards
    )
    assert game.count == 30 and game.next == "C"
    assert [game.to_json()["hands"][s]["left"] for s in "ABC"] == [0, 0, 1]
    before = dict(game.scores)
    game = run(game, "C 7D")  # C's go: 1 for last card; C leads 7D, the last card: 1 more
    assert plays(game)[-2:] == [("C", "3H", 30, ["go"]), ("C", "7D", 7, ["go"])]
    assert game.scores["C"] == before["C"] + 2
    assert game.phase == "show"


def test_three_players_every_seat_still_in_the_series_says_go_in_turn():
    """At 27 with A to play, A lays a king: A, B and C said go, C laid last and pegs 1; the
    next series is led by A (after C), so A lays the king at 0."""
    game = run(
        new(variant="three-player"), {"type": "dealer", "seat": "C"},
        {"type": "starter", "card": "5D"}, "A 9S", "B 9H", "C 9D",
    )
    assert game.count == 27 and game.next == "A"
    after = run(game, "A KC")
    assert after.count == 10 and after.next == "B"
    assert plays(after)[-2:] == [("C", "9D", 27, ["pair", "go"]), ("A", "KC", 10, [])]
    said = run(game, "A go", "B go", "C go", "A KC")
    assert plays(after) == plays(said) and after.scores == said.scores
    # B lays a king instead: A passed over, B's go, C's go; C laid last, A leads at 0 -> turn
    assert "it is A's turn" in refused(game, "B KC", "turn")


def test_a_seat_that_can_play_must_play():
    """The laying seat's own known hand holds a card that fits: the card past 31 is refused."""
    known = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "B", "cards": ["KH", "9C", "AC", "2C"]},
        {"type": "starter", "card": "KD"}, "A TS", "B KH", "A QS",
    )
    message = refused(known, "B 9C", "thirty-one")
    assert message == (
        "B cannot lay 9C: it would take the count to 39, past 31, and B holds AC, which fits "
        "at a count of 30 (a seat that can play must play)"
    )
    # only the dealt hand known: at 28 B holds 3 of 9C AC 2C 3C 4C, only 2 of them too big
    dealt = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "B", "cards": ["8S", "9C", "AC", "2C", "3C", "4C"]},
        {"type": "starter", "card": "KD"}, "A TS", "B 8S", "A QS",
    )
    message = refused(dealt, "B 9C", "thirty-one")
    assert "B holds 3 of 9C AC 2C 3C 4C" in message and "must play" in message
    # with three of them too big, B may hold only those: B's go and A's are inferred
    big = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "B", "cards": ["8S", "9C", "AC", "2C", "5C", "4C"]},
        {"type": "starter", "card": "KD"}, "A TS", "B 8S", "A QS", "B 9C",
    )
    assert big.scores == {"A": 1, "B": 0} and big.count == 9


def test_a_seat_holding_a_card_that_fits_cannot_have_said_go():
    """A's known hand holds AC: when B lays a card past 31, A cannot have said go."""
    game = run(
        new(), {"type": "dealer", "seat": "B"},
        {"type": "hand", "seat": "A", "cards": ["TS", "QS", "AC", "KC"]},
        {"type": "starter", "card": "KD"}, "A TS", "B 8S", "A QS",
    )
    message = refused(game, "B 9C", "turn")
    assert message == (
        "B cannot lay 9C at a count of 28: it does not fit, so every seat must have said go, "
        "and A cannot have (A holds AC, which fits at a count of 28)"
    )
    game = run(game, "B 3C")  # 31: B pegs 2 and A leads
    assert game.scores == {"A": 0, "B": 2} and game.next == "A"


def test_the_five_card_play_stops_at_the_first_go():
    game = run(new(variant="five-card"), {"type": "dealer", "seat": "B"},
               {"type": "starter", "card": "KD"}, "A TS", "B TH", "A 9S")
    message = refused(game, "B 5C", "thirty-one")
    assert message == (
        "B cannot lay 5C: it would take the count to 34, past 31, and in the five-card game "
        "the play is one series that stops at the first go, so no card follows a count of 29; "
        "B says go instead"
    )
    assert "one series" in refused(game, "A 5C", "thirty-one")  # B passed over, then A's 5C


def test_a_card_that_fits_and_the_seats_passed_over_are_unchanged():
    game = started("A TS", "B KH")
    refused(game, "B 5C", "turn")  # A cannot have passed at 20
    game = run(game, "A 5S", "B 6H")  # 31 fits: B pegs 2, A leads
    assert game.scores == {"A": 0, "B": 2} and game.count == 0 and game.next == "A"


def test_the_go_point_of_an_inferred_series_is_pegged_as_counted():
    """With claim counting, a card's claim covers what that card scores; the go point the
    inferred goes give is pegged as counted."""
    game = started("A TS", "B 8S", "A QS", counting="claim", muggins=True)
    game = game.apply({"type": "play", "seat": "B", "card": "9C", "claim": 0})
    assert game.scores == {"A": 1, "B": 0} and game.pending == []
    refused(game, {"type": "play", "seat": "A", "card": "6C", "claim": 3}, "over-claim")


# -- random games: only laid cards ----------------------------------------------------------


def _without_goes(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[int]]:
    """``events`` without the goes that a card laid after them shows; and where the kept
    goes are (those no card follows: the end of a five-card play)."""
    out: list[dict[str, Any]] = []
    kept: list[int] = []
    for k, event in enumerate(events):
        if event["type"] == "go":
            following = next((e["type"] for e in events[k + 1:] if e["type"] != "go"), None)
            if following == "play":
                continue
            kept.append(k)
        out.append(event)
    return out, kept


def _same_game(a: Game, b: Game) -> None:
    assert a.scores == b.scores and a.phase == b.phase and a.winner == b.winner
    assert [h["points"] for h in a.history] == [h["points"] for h in b.history]
    assert [h["plays"] for h in a.history] == [h["plays"] for h in b.history]
    assert _state(a) == _state(b)


@SETTINGS
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(SERIES_VARIANTS),
       known=st.booleans())
def test_laid_cards_alone_give_the_same_game(seed, variant, known):
    """Drop every go of a random legal game that a card follows: the cards laid show them.

    The play goes on until every card is laid, so a card follows every go but those that
    end the game (the last to lay reaching the target with the point for last card).
    """
    s = Settings.from_json({"variant": variant, "target": 61})
    said, events = random_game(s, random.Random(seed), hands_known=known)
    assert said.phase == "over"
    fewer, kept = _without_goes(events)
    assert all(e["type"] == "go" for e in events[min(kept, default=len(events)):])
    if kept:
        assert said.last[0].item.kind == "go"  # the game was won on the point for last card
    seen = Game(s)
    for event in fewer:
        seen = seen.apply(event)
    _same_game(seen, said)
    explained(seen)


@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_five_card_needs_only_the_goes_that_end_the_play(seed):
    """The five-card play stops at the first go: those goes show no card, so a camera sends
    them; every other go is inferred."""
    s = Settings.from_json({"variant": "five-card"})
    said, events = random_game(s, random.Random(seed), hands_known=False)
    fewer, kept = _without_goes(events)
    assert all(events[k]["type"] == "go" for k in kept)
    seen = Game(s)
    for event in fewer:
        seen = seen.apply(event)
    _same_game(seen, said)


# -- seen: how the camera saw an event ------------------------------------------------------

SEEN = {"frame": 1204, "confidence": 0.93, "crop": "crops/f1204-play.jpg"}


def _with_seen(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**e, "seen": {**SEEN, "frame": k, "extra": "dropped"}} if e["type"] in SEEN_TYPES
        else e
        for k, e in enumerate(events)
    ]


def test_an_event_seen_by_the_camera_applies_exactly_like_one_without():
    s = Settings.from_json({"target": 61})
    plain, events = random_game(s, random.Random(5), hands_known=False)
    seen = Game(s)
    for event in _with_seen(events):
        seen = seen.apply(event)
    assert seen.to_json() == plain.to_json()
    stripped = [{k: v for k, v in e.items() if k != "seen"} for e in seen.log]
    assert stripped == plain.log
    marked = [e for e in seen.log if "seen" in e]
    assert marked and all(e["type"] in SEEN_TYPES for e in marked)
    assert all(set(e["seen"]) == {"frame", "confidence", "crop"} for e in marked)


@pytest.mark.parametrize("bad", [
    "frame 3", [1], {"frame": -1}, {"frame": 10**9 + 1}, {"frame": 2.0}, {"frame": True},
    {"frame": "12"}, {"confidence": 1.5}, {"confidence": -0.1}, {"confidence": float("nan")},
    {"confidence": float("inf")}, {"confidence": "0.9"}, {"confidence": False},
    {"crop": "crops/../x.jpg"}, {"crop": "/crops/a.jpg"}, {"crop": "crops/a.png"},
    {"crop": "crops/a b.jpg"}, {"crop": "crops/.jpg"}, {"crop": "crops/" + "a" * 81 + ".jpg"},
    {"crop": "crops/a.jpg\n"}, {"crop": 7},
])
def test_a_bad_seen_is_refused_and_changes_nothing(bad):
    game = started("A 5S")
    message = refused(game, {"type": "play", "seat": "B", "card": "TS", "seen": bad}, "event")
    assert "seen" in message


def test_seen_is_kept_only_on_what_a_camera_sees_and_dropped_when_empty():
    game = run(new(), {"type": "dealer", "seat": "B", "seen": SEEN},
               {"type": "hand", "seat": "A", "cards": ["5S", "TS", "6C", "7C"], "seen": SEEN},
               {"type": "starter", "card": "KD", "seen": SEEN},
               {"type": "play", "seat": "A", "card": "5S", "seen": {"other": 1}},
               {"type": "play", "seat": "B", "card": "TH", "seen": {"confidence": 1}})
    assert ["seen" in e for e in game.log] == [False, False, True, False, True]
    assert game.log[-1]["seen"] == {"confidence": 1.0}
    assert game.scores == {"A": 0, "B": 2}


def test_the_log_stores_seen_and_a_correction_carries_its_own(tmp_path):
    path = tmp_path / "games.db"
    with GameStore(path) as store:
        gid = store.new_game({"players": "Ann,Bob"})
        store.apply(gid, {"type": "dealer", "seat": "B"})
        store.apply(gid, {"type": "starter", "card": "KD", "seen": SEEN}, source="camera")
        store.apply(gid, {"type": "play", "seat": "A", "card": "5S",
                          "seen": {"frame": 1300, "confidence": 0.4}}, source="camera")
        with pytest.raises(Exception) as info:
            store.apply(gid, {"type": "play", "seat": "B", "card": "TS", "seen": {"frame": -3}})
        assert getattr(info.value, "rule", None) == "event"
        store.apply(gid, {"type": "correct", "event": 3,
                          "with": {"type": "play", "seat": "A", "card": "6S",
                                   "seen": {"frame": 1301, "crop": "crops/f1301.jpg"}}})
        store.apply(gid, {"type": "correct", "event": 2,
                          "with": {"type": "starter", "card": "QD"}})
    with GameStore(path) as again:
        rows = again.events(gid)
        state = again.state(gid)
    assert [r["event"].get("seen") for r in rows] == [
        None, SEEN, {"frame": 1300, "confidence": 0.4}, None, None,
    ]
    assert rows[3]["event"]["with"]["seen"] == {"frame": 1301, "crop": "crops/f1301.jpg"}
    assert "seen" not in rows[4]["event"]["with"]
    assert rows[1]["superseded_by"] == 5 and rows[2]["superseded_by"] == 4
    assert state["plays"][0]["card"] == "6S" and state["starter"] == "QD"
