"""Issue 45: every view says an event and its points in the same words (the Fix tab said
"thirty-one for one" where the Table and the voice say "thirty-one for two, and game"), and an
undo says what it undid and asks before undoing an event another phone sent."""

from __future__ import annotations

from flask import Flask
from test_web_words import thirty_one_at_60
from webhelpers import Api


def test_the_fix_tab_words_a_31_for_the_game_as_the_table_does(api: Api) -> None:
    state = thirty_one_at_60(api, "B")
    events = api.get(f"/api/games/{state['game']}/events").get_json()["events"]
    last = events[-1]
    assert last["said"] == "Dee laid A♥"
    assert last["points_said"] == state["said"] == "Dee: thirty-one for two, and game"
    assert [e["said"] for e in events[:3]] == ["Dee deals", "Dee +60 (test)", "Starter 2♣"]
    assert events[2]["points_said"] == ""


def test_a_31_short_of_the_game_is_not_game(api: Api) -> None:
    state = thirty_one_at_60(api, "A")
    last = api.get(f"/api/games/{state['game']}/events").get_json()["events"][-1]
    assert last["points_said"] == state["said"] == "Ann: thirty-one for two"


def started(api: Api) -> int:
    game = api.new_game(players=["Ann", "Bob"])
    for event in ({"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"},
                  {"type": "play", "seat": "A", "card": "4C"}):
        api.event(game, event)
    return game


def test_undo_says_what_it_undid(api: Api) -> None:
    game = started(api)
    body = api.event(game, {"type": "undo"})
    assert body["undid"] == {"event": 3, "said": "Ann laid 4♣"}
    assert body["state"]["plays"] == []


def test_undo_of_another_phones_event_asks_first(app: Flask, api: Api) -> None:
    game = started(api)
    phone = Api(app.test_client())
    asked = phone.post(f"/api/games/{game}/events", {"type": "undo"})
    assert asked.status_code == 409
    body = asked.get_json()
    assert body["undo"] == {"event": 3, "said": "Ann laid 4♣"}
    assert "#3 Ann laid 4♣" in body["error"] and "not sent from this phone" in body["error"]
    assert api.get(f"/api/games/{game}").get_json()["state"]["events"] == 3  # nothing undone
    # the phone meant #2 but #3 is newer: refused, named
    stale = phone.post(f"/api/games/{game}/events", {"type": "undo", "expect": 2})
    assert stale.status_code == 409 and "#3 Ann laid 4♣ is newer" in stale.get_json()["error"]
    done = phone.event(game, {"type": "undo", "expect": 3})
    assert done["undid"]["said"] == "Ann laid 4♣"
    # the next undo would take the starter, which this phone did not send either
    assert phone.post(f"/api/games/{game}/events", {"type": "undo"}).get_json()["undo"] == {
        "event": 2, "said": "Starter 5♦"}
    # the phone that sent it undoes it at once
    assert api.event(game, {"type": "undo"})["undid"] == {"event": 2, "said": "Starter 5♦"}


def test_a_bad_expect_is_400_and_nothing_changes(api: Api) -> None:
    game = started(api)
    for bad in ("3", True, 2.5, [3]):
        response = api.post(f"/api/games/{game}/events", {"type": "undo", "expect": bad})
        assert response.status_code == 400, bad
        assert "expect" in response.get_json()["error"]
    assert api.get(f"/api/games/{game}").get_json()["state"]["events"] == 3


def test_an_undo_with_nothing_to_undo_is_refused_in_words(api: Api) -> None:
    game = api.new_game(players=["Ann", "Bob"])
    response = api.post(f"/api/games/{game}/events", {"type": "undo"})
    assert response.status_code == 422
