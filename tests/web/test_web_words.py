"""The page speaks as players do: engine refusals and award reasons with names, not seat letters;
events and phases in players' words (``web.words``), the rule's name kept in the JSON; a count
of nothing replaces the words of the count before; the history lists sides in seat order."""

from __future__ import annotations

from typing import Any

import pytest
from webhelpers import DEAL, Api

from web.history import game_summary
from web.words import name_seats, reason_words, refusal_words, scoring_words

TWO = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}],
       "sides": [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}]}
FOUR = {"players": [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"},
                    {"seat": "C", "name": "Cat"}, {"seat": "D", "name": "Dan"}],
        "sides": [{"id": "AC", "name": "Ann & Cat"}, {"id": "BD", "name": "Bob & Dan"}]}


@pytest.mark.parametrize(("engine", "said"), [
    ("C cannot say go: C holds 5H, which fits at a count of 20",
     "Cat cannot say go: Cat holds 5♥, which fits at a count of 20"),
    ("A claims 10 for the show but it counts 8: fifteen (5C TD) 2",
     "Ann claims 10 for the hand but it counts 8: fifteen (5♣ 10♦) 2"),
    ("B counts before A (pone first, the dealer last)",
     "Bob counts before Ann (pone first, the dealer last)"),
    ("it is B's deal, not A's (the deal passes to the left)",
     "It is Bob's deal, not Ann's (the deal passes to the left)"),
    ("5H is not in D's hand", "5♥ is not in Dan's hand"),
    ("5H is in the hand C keeps", "5♥ is in the hand Cat keeps"),
    ("the crib is counted last; D counts now", "The crib is counted last; Dan counts now"),
    ("5H has already been seen this deal (with B)", "5♥ has already been seen this deal (with Bob)"),
    ("A cannot call muggins on C's own count; an opponent (B, D) can",
     "Ann cannot call muggins on Cat's own count; an opponent (Bob or Dan) can"),
    ("A's hand is not known: show it with its cards", "Ann's hand is not known: pick its cards"),
])
def test_engine_refusals_name_the_players(engine: str, said: str) -> None:
    assert refusal_words(engine, FOUR) == said


@pytest.mark.parametrize("text", [
    "A hand in the six-card game is 6 cards dealt or 4 kept, not 3",  # "A" the article
    "AS has already been seen this deal (the starter)",  # the ace of spades
    "AC BD",  # side ids alone are not in a known pattern
    "a card that fits at a count of 30",
    "CABD is not a word; Bob's Ace",
])
def test_letters_outside_the_engine_patterns_are_untouched(text: str) -> None:
    assert name_seats(text, FOUR) == text


def test_letters_of_seats_not_at_the_table_stay() -> None:
    assert name_seats("C cannot say go", TWO) == "C cannot say go"


@pytest.mark.parametrize(("engine", "said"), [
    ("show is not allowed in the play phase (only in show)", "Hands are counted after the play."),
    ("crib is not allowed in the play phase (only in show)", "Hands are counted after the play."),
    ("play is not allowed in the show phase (only in play)", "The play is over: count the hands."),
    ("starter is not allowed in the cut phase (only in deal)", "Choose the dealer first."),
    ("show is not allowed in the deal phase (only in show)", "Turn the starter first."),
    ("dealer is not allowed in the deal phase (only in cut)",
     "The dealer is already chosen: turn the starter."),
    ("dealer is not allowed in the play phase (only in cut)",
     "The dealer is already chosen: finish the play."),
    ("starter is not allowed in the show phase (only in deal)",
     "Not now: turning the starter does not fit counting the hands."),
    ("the game is over (Ann & Cat won); play is refused", "The game is over: Ann & Cat won."),
    ("the game is over (AC won); play is refused", "The game is over: Ann & Cat won."),
])
def test_events_and_phases_in_players_words(engine: str, said: str) -> None:
    words = refusal_words(engine, FOUR)
    assert words == said
    for word in (" phase", "(only in", "cut)", " AC "):
        assert word not in words


def test_award_reasons_name_the_claimer() -> None:
    assert reason_words("B claimed 19 of 21", TWO) == "Bob claimed 19 of 21"
    assert reason_words("AC claimed 4 of 6", FOUR) == "Ann & Cat claimed 4 of 6"
    assert reason_words("a miscount at the table", TWO) == "a miscount at the table"
    state = {**TWO, "last": [{"seat": "A", "kind": "muggins", "cards": [], "points": 2,
                              "reason": "B claimed 19 of 21"}], "shows": [], "history": []}
    assert scoring_words(state) == "Ann: muggins! for two (Bob claimed 19 of 21)"


def refusal(api: Api, game: int, event: dict[str, Any]) -> dict[str, Any]:
    return api.event(game, event, expect=422)


def test_the_api_refuses_in_players_words_and_keeps_the_rule(api: Api) -> None:
    game = api.new_game(players=["Ann", "Bob"])
    early = refusal(api, game, {"type": "show", "seat": "A", "cards": ["5H", "6H", "7H", "8H"]})
    assert early["rule"] == "phase"
    assert early["error"] == "Choose the dealer first."
    assert "phase" in early["detail"]  # the engine's own words, for programs
    for event in DEAL[:3]:
        api.event(game, event)
    go = refusal(api, game, {"type": "go", "seat": "B"})
    assert go["rule"] == "go"
    assert go["error"] == "Bob cannot say go: any card fits at a count of 10"
    assert go["detail"] == "B cannot say go: any card fits at a count of 10"
    shown = refusal(api, game, {"type": "show", "seat": "A", "cards": ["JC", "5H", "4H", "6D"]})
    assert shown["error"] == "Hands are counted after the play."
    dealer = refusal(api, game, {"type": "dealer", "seat": "A"})
    assert dealer["error"] == "The dealer is already chosen: finish the play."
    turn = refusal(api, game, {"type": "play", "seat": "A", "card": "2C"})
    assert turn["error"].startswith("Ann cannot lay 2♣ out of turn: it is Bob's turn, and Bob")


def test_muggins_said_with_names(api: Api) -> None:
    game = api.new_game(players=["Ann", "Bob"], muggins=True)
    for event in DEAL[:11]:
        api.event(game, event)
    api.event(game, {"type": "show", "seat": "A", "cards": ["JC", "5H", "4H", "6D"], "claim": 10})
    called = api.event(game, {"type": "muggins", "seat": "B"})
    assert called["state"]["said"] == "Bob: muggins! for six (Ann claimed 10 of 16)"


def test_a_crib_of_nothing_replaces_the_words_before(api: Api) -> None:
    game = api.new_game(players=["Ann", "Bob"])
    for event in DEAL[:13]:
        if event["type"] == "starter":
            event = {"type": "starter", "card": "KD"}  # no crib of four scores 0 with a five
        state = api.event(game, event)["state"]
    assert state["said"].startswith("Bob: ")  # Bob's hand
    state = api.event(game, {"type": "crib", "cards": ["AS", "2S", "6S", "TS"]})["state"]
    assert state["said"] == "Bob's crib: nineteen (no points)"
    # the next deal's points replace it
    state = api.event(game, {"type": "starter", "card": "JH"})["state"]
    assert state["said"] == "Ann: his heels for two"


def test_a_hand_of_nothing_is_said() -> None:
    state = {**TWO, "events": 14, "last_event": 12,
             "last": [{"seat": "A", "kind": "fifteen", "cards": ["5C", "TD"], "points": 2}],
             "shows": [{"seat": "A", "crib": False, "spoken": "fifteen two", "items": [
                 {"seat": "A", "kind": "fifteen", "cards": ["5C", "TD"], "points": 2}]},
                 {"seat": "B", "crib": False, "spoken": "nineteen (no points)", "items": [],
                  "total": 0}], "history": []}
    assert scoring_words(state) == "Bob's hand: nineteen (no points)"


def test_history_lists_sides_in_seat_order_with_their_own_scores() -> None:
    summary = game_summary({"id": 3, "players": ["Ann", "Bob", "Cat", "Dan"],
                            "sides": [{"id": "AC", "name": "Ann & Cat"}, {"id": "BD", "name": "Bob & Dan"}],
                            "scores": {"AC": 25, "BD": 29}})
    assert summary["line"] == "Ann & Cat v Bob & Dan"
    assert summary["score"] == "25–29"
    assert [s["score"] for s in summary["side_scores"]] == [25, 29]
    two = game_summary({"id": 1, "players": ["Alice", "Bob"], "scores": {"A": 25, "B": 29}})
    assert two["line"] == "Alice v Bob" and two["score"] == "25–29"


def test_history_says_a_result_with_the_winners_score_first(api: Api) -> None:
    """History said "Ann v Xan — Xan won 40–61": the loser's score first."""
    game = api.new_game(players=["Ann", "Xan"], target=61)
    api.event(game, {"type": "dealer", "seat": "A"})
    api.event(game, {"type": "adjust", "seat": "A", "points": 40, "reason": "test"})
    api.event(game, {"type": "adjust", "seat": "B", "points": 61, "reason": "test"})
    [row] = [g for g in api.get("/api/games").get_json()["games"] if g["game_id"] == game]
    assert row["line"] == "Ann v Xan" and row["winner_name"] == "Xan" and row["score"] == "61–40"
    assert [s["score"] for s in row["side_scores"]] == [40, 61]  # seat order, as the line
    three = game_summary({"id": 4, "players": ["Ann", "Bob", "Cat"],
                          "scores": {"A": 35, "B": 47, "C": 121}, "winner": "C"})
    assert three["score"] == "121–47–35"


def test_points_in_the_play_are_said_as_players_peg_them(api: Api) -> None:
    """The page's words for the play are the engine's (``cribbage.spoken``), which the voice says."""
    game = api.new_game(players=["Ann", "Bob"])
    said = [api.event(game, event)["state"]["said"] for event in DEAL[:11]]
    assert said[3] == "Bob: fifteen for two"
    assert said[4] == "Ann: pair for two"
    assert said[7] == "Bob: last card for one"  # Ann said go at thirty; Bob pegs his last card
    assert said[10] == "Bob: last card for one"  # the last card of the play


def test_a_three_player_cut_again_is_between_the_tied_only(api: Api) -> None:
    """The page's words and the engine agree: only the tied players cut again, and the lower of
    them deals; a re-cut card from the player who lost is refused in players' words."""
    game = api.new_game(variant="three-player", players=["Ann", "Ben", "Cat"])
    state = api.event(game, {"type": "cut", "cards": {"A": "7S", "B": "7H", "C": "KD"}})["state"]
    assert state["cut_said"] == ("Ann cut 7♠, Ben cut 7♥, Cat cut K♦: equal lowest cuts, "
                                 "so Ann and Ben cut again.")
    assert state["cutting"] == ["A", "B"]
    refused = api.post(f"/api/games/{game}/events",
                       {"type": "cut", "cards": {"A": "9S", "B": "8H", "C": "AH"}})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == "Only Ann and Ben cut again (equal lowest cuts), not Cat"
    state = api.event(game, {"type": "cut", "cards": {"A": "9S", "B": "8H"}})["state"]
    assert state["dealer"] == "B"
    assert state["cut_said"] == "Ann cut 9♠, Ben cut 8♥: Ben cut lower and deals first."


def test_three_names_in_a_two_player_game_say_the_variant(api: Api) -> None:
    response = api.post("/api/games", {"players": ["Ann", "Bob", "Cat"]})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert "Cat game" not in error
    assert error.lower().startswith("the six-card game has 2 players, not 3"), error
    assert "three-player" in error


def thirty_one_at_60(api: Api, dealer: str) -> dict:
    """A game of 61 with Dee (B) at 60, in which the pone's ace makes 31; its state after the ace."""
    pone, other = ("B", "A") if dealer == "A" else ("A", "B")
    game = api.new_game(players=["Ann", "Dee"], target=61)
    for event in ({"type": "dealer", "seat": dealer},
                  {"type": "adjust", "seat": "B", "points": 60, "reason": "test"},
                  {"type": "starter", "card": "2C"},
                  {"type": "play", "seat": pone, "card": "KS"}, {"type": "play", "seat": other, "card": "QH"},
                  {"type": "play", "seat": pone, "card": "TS"}):
        api.event(game, event)
    return {"game": game, **api.event(game, {"type": "play", "seat": other, "card": "AH"})["state"]}


def test_thirty_one_for_the_game_is_said_for_two(api: Api) -> None:
    """At 60 in a game of 61 a 31 is thirty-one for two, and game (it said "for one": the
    words were taken from the one hole the peg could still move)."""
    assert thirty_one_at_60(api, "A")["said"] == "Ann: thirty-one for two"  # Ann at 0: not the game
    state = thirty_one_at_60(api, "B")
    game = state["game"]
    assert state["said"] == "Dee: thirty-one for two, and game"
    assert state["phase"] == "over" and state["winner"] == "B" and state["scores"]["B"] == 61
    assert api.post(f"/api/games/{game}/events",
                    {"type": "play", "seat": "A", "card": "4H"}).status_code == 422


def test_a_name_past_24_characters_is_400_and_no_game_is_made(api: Api) -> None:
    before = api.get("/api/games").get_json()["games"]
    response = api.post("/api/games", {"players": ["Ann", "B" * 10_240]})
    assert response.status_code == 400
    assert response.get_json()["error"] == ("players[1] is 10240 characters long; a player's name "
                                            "is at most 24")
    assert api.get("/api/games").get_json()["games"] == before
