"""The JSON API for games: start, play, correct, undo, adjust, muggins, history, refusals."""

from __future__ import annotations

from typing import Any

from webhelpers import DEAL, Api


def play_deal(api: Api, game: int, events: list[dict[str, Any]] = DEAL) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for event in events:
        result = api.event(game, event)
    return result


def test_session_gives_a_csrf_token_and_the_table_status(api: Api) -> None:
    data = api.get("/api/session").get_json()
    assert data["csrf"] == api.csrf and len(api.csrf) >= 20
    assert data["pin"] == "unset" and data["unlocked"] is True
    assert data["companion"]["leds"] == "none"


def test_no_game_yet(api: Api) -> None:
    response = api.get("/api/games/latest")
    assert response.status_code == 404
    assert "no game" in response.get_json()["error"]
    assert api.get("/api/games").get_json() == {"games": [], "latest": None, "tally": {}}


def test_new_game_and_its_state(api: Api) -> None:
    response = api.post("/api/games", {"players": ["Ann", "Bob"], "target": 61,
                                       "colours": ["#112233", "#445566"], "muggins": True,
                                       "counting": "claim"})
    assert response.status_code == 201
    data = response.get_json()
    state = data["state"]
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob"]
    assert state["target"] == 61 and state["settings"]["counting"] == "claim"
    assert [s["colour"] for s in state["sides"]] == ["#112233", "#445566"]
    assert api.get("/api/games/latest").get_json()["game_id"] == data["game_id"]
    assert api.get(f"/api/games/{data['game_id']}").get_json()["state"]["scores"] == {"A": 0, "B": 0}


def test_a_whole_deal_by_hand(api: Api) -> None:
    game = api.new_game()
    result = play_deal(api, game)
    state = result["state"]
    assert state["scores"] == {"A": 18, "B": 20}
    assert state["pegs"] == {"A": [18, 2], "B": [20, 12]}
    assert state["phase"] == "deal" and state["dealer"] == "A"
    assert result["changed"] == [{"seat": "B", "from": 12, "to": 20}]
    # the crib is labelled as the crib, as the voice says it (issue 45: "Bob: fifteen two ...")
    assert state["said"] == "Bob's crib: fifteen two, fifteen four, fifteen six and fifteen eight"
    events = api.get(f"/api/games/{game}/events").get_json()["events"]
    assert len(events) == len(DEAL)
    assert all(e["source"] == "page" for e in events)
    assert events[3]["points"][0]["kind"] == "fifteen"


def test_the_play_is_said_in_words(api: Api) -> None:
    game = api.new_game()
    state = play_deal(api, game, DEAL[:4])["state"]
    assert state["said"] == "Bob: fifteen for two"


def test_an_illegal_play_is_refused_and_changes_nothing(api: Api) -> None:
    game = api.new_game()
    play_deal(api, game, DEAL[:3])
    before = api.get(f"/api/games/{game}").get_json()["state"]
    refused = api.event(game, {"type": "play", "seat": "A", "card": "7C"}, expect=422)
    assert refused["rule"] and "turn" in refused["error"]
    # a card already played
    again = api.event(game, {"type": "play", "seat": "B", "card": "JC"}, expect=422)
    assert "J♣" in again["error"] and "JC" in again["detail"]  # cards as players read them
    after = api.get(f"/api/games/{game}").get_json()["state"]
    assert after == before
    assert len(api.get(f"/api/games/{game}/events").get_json()["events"]) == 3


def test_bad_event_bodies(api: Api) -> None:
    game = api.new_game()
    path = f"/api/games/{game}/events"
    assert api.post(path, data="not json", content_type="application/json").status_code == 400
    assert api.post(path, [1, 2]).status_code == 400
    assert api.post(path, {"seat": "A"}).status_code == 400
    assert api.post(path, {"type": "peg"}).status_code == 422
    assert api.post(path, {"type": "play", "seat": "A", "card": "ZZ"}).status_code == 400
    assert api.post(path, {"type": "dealer", "seat": "Q"}).status_code == 422
    big = {"type": "adjust", "seat": "A", "points": 1, "reason": "x" * 20_000}
    assert api.post(path, big).status_code == 413
    for response in (api.post(path, {"type": "peg"}), api.post(path, [1])):
        assert "error" in response.get_json()
    assert api.get(f"/api/games/{game}/events").get_json()["events"] == []


def test_unknown_games_are_404(api: Api) -> None:
    huge = 10**20  # past SQLite's integers
    assert api.get(f"/api/games/{huge}").status_code == 404
    assert api.get(f"/api/stream?game={huge}").status_code == 404
    assert api.post(f"/api/games/{huge}/events", {"type": "undo"}).status_code == 404
    assert api.get(f"/games/{huge}").status_code == 404
    assert api.get("/api/games/99").status_code == 404
    assert api.get("/api/games/99/events").status_code == 404
    assert api.get("/api/games/99/chart.svg").status_code == 404
    assert api.post("/api/games/99/events", {"type": "undo"}).status_code == 404
    assert api.get("/api/nothing").get_json()["status"] == 404


def test_bad_settings_are_refused(api: Api) -> None:
    response = api.post("/api/games", {"target": 100})
    assert response.status_code == 422 and "target" in response.get_json()["error"]
    assert api.post("/api/games", {"players": ["Only one"]}).status_code == 422
    assert api.post("/api/games", ["x"]).status_code == 400
    assert api.get("/api/games").get_json()["games"] == []


def test_correct_a_card_and_see_the_scores_change(api: Api) -> None:
    game = api.new_game()
    play_deal(api, game, DEAL[:4])  # Bob's 5S made fifteen
    events = api.get(f"/api/games/{game}/events").get_json()["events"]
    fifteen = events[3]
    assert fifteen["event"] == {"type": "play", "seat": "B", "card": "5S"}
    result = api.event(game, {"type": "correct", "event": fifteen["id"],
                              "with": {"type": "play", "seat": "B", "card": "6S"}})
    assert result["state"]["scores"] == {"A": 0, "B": 0}
    assert result["changed"] == [{"seat": "B", "from": 2, "to": 0}]
    events = api.get(f"/api/games/{game}/events").get_json()["events"]
    assert events[3]["superseded_by"] == 5  # the correction replaces it
    assert events[4]["event"]["type"] == "correct" and events[4]["source"] == "page"
    assert events[4]["event"]["with"]["card"] == "6S"


def test_undo_and_adjust(api: Api) -> None:
    game = api.new_game()
    play_deal(api, game, DEAL[:4])
    undone = api.event(game, {"type": "undo"})
    assert undone["state"]["scores"] == {"A": 0, "B": 0}
    assert undone["changed"] == [{"seat": "B", "from": 2, "to": 0}]
    adjusted = api.event(game, {"type": "adjust", "seat": "A", "points": 3,
                                "reason": "forgot his nobs"})
    assert adjusted["state"]["scores"]["A"] == 3
    assert "forgot his nobs" in adjusted["state"]["said"]
    log = api.get(f"/api/games/{game}/events").get_json()["events"]
    assert log[3]["superseded_by"] == 5
    assert log[-1]["event"]["reason"] == "forgot his nobs"


def test_muggins_pegs_the_missed_points(api: Api) -> None:
    game = api.new_game(counting="claim", muggins=True)
    play_deal(api, game, DEAL[:11])
    claimed = api.event(game, {"type": "show", "seat": "A",
                               "cards": ["JC", "5H", "4H", "6D"], "claim": 10})
    chance = claimed["state"]["muggins"][0]
    assert chance["points"] == 6 and chance["callers"] == ["B"]
    assert claimed["state"]["said"] == "Alice: claims ten"
    refused = api.event(game, {"type": "muggins", "seat": "A"}, expect=422)
    assert refused["rule"] == "muggins"
    called = api.event(game, {"type": "muggins", "seat": "B", "event": chance["event"]})
    assert called["changed"] == [{"seat": "B", "from": 4, "to": 10}]
    assert called["state"]["muggins"] == []


def test_history_tally_and_chart(api: Api) -> None:
    game = api.new_game()
    play_deal(api, game)
    api.new_game(players=["Carol", "Dave"])
    listing = api.get("/api/games").get_json()
    assert [g["game_id"] for g in listing["games"]] == [2, 1]
    assert listing["games"][1]["players"] == ["Alice", "Bob"]
    assert listing["games"][1]["scores"] == {"A": 18, "B": 20}
    chart = api.get(f"/api/games/{game}/chart.svg")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    svg = chart.get_data(as_text=True)
    assert svg.count("<polyline") == 2 and "Alice 18" in svg and "Bob 20" in svg


def test_a_finished_game_counts_in_the_tally(api: Api, companion: Any) -> None:
    from companion.demo import SETTINGS, demo_events

    game = companion.new_game(SETTINGS)
    for event in demo_events():
        companion.apply(game, event, source="demo")
    state = api.get(f"/api/games/{game}").get_json()["state"]
    assert state["phase"] == "over" and state["winner"] in ("A", "B")
    listing = api.get("/api/games").get_json()
    winner = state["winner_name"]
    assert listing["tally"] == {winner: state["game_points"]}
    chart = api.get(f"/api/games/{game}/chart.svg").get_data(as_text=True)
    assert f"{winner} 121" in chart


def test_preview_shows_what_a_correction_would_change_without_storing_it(api: Api) -> None:
    game = api.new_game()
    play_deal(api, game, DEAL[:4])
    fix = {"type": "correct", "event": 4, "with": {"type": "play", "seat": "B", "card": "6S"}}
    preview = api.post(f"/api/games/{game}/preview", fix).get_json()
    assert preview["changed"] == [{"seat": "B", "from": 2, "to": 0}]
    assert preview["state"]["scores"] == {"A": 0, "B": 0}
    assert api.get(f"/api/games/{game}").get_json()["state"]["scores"] == {"A": 0, "B": 2}
    assert len(api.get(f"/api/games/{game}/events").get_json()["events"]) == 4
    refused = api.post(f"/api/games/{game}/preview",
                       {"type": "correct", "event": 4,
                        "with": {"type": "play", "seat": "B", "card": "JC"}})
    assert refused.status_code == 422
    assert api.post(f"/api/games/{game}/preview", {"seat": "A"}).status_code == 400
    assert api.post("/api/games/9/preview", {"type": "undo"}).status_code == 404
