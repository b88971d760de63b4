"""The coach through the API: ``POST /api/discard`` ranks the discards with the why in words,
and ``GET /api/games/<id>/review`` reviews each deal whose hands were entered."""

from __future__ import annotations

import json
import random

import pytest
from flask import Flask
from webhelpers import Api

from companion.cli import main
from cribbage.cards import parse_cards
from cribbage.coach import advise_discards
from cribbage.game import Settings
from cribbage.game.simulate import random_game

SIX = ["5H", "5S", "JD", "QC", "2H", "9S"]


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["discard", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_the_options_are_crib_discards_with_the_why(api: Api, capsys: pytest.CaptureFixture[str],
                                                     role: str) -> None:
    response = api.post("/api/discard", {"dealt": SIX, "role": role, "top": 15})
    assert response.status_code == 200, response.get_json()
    got = response.get_json()
    want = cli_json(capsys, *SIX, f"--{role}", "--top", "15")
    assert (got["dealt"], got["role"], got["variant"], got["choices"]) == (SIX, role, "six-card", 15)
    for option, expected in zip(got["options"], want["options"], strict=True):
        assert {k: option[k] for k in expected} == expected
    keep_fives = next(o for o in got["options"] if o["keep"] == ["5H", "5S", "JD", "QC"])
    assert keep_fives["kept_points"] == 10  # four fifteens and a pair, before the starter
    assert sorted(i["kind"] for i in keep_fives["kept_items"]) == ["fifteen"] * 4 + ["pair"]
    assert "10 before the starter (four fifteens and a pair)" in keep_fives["why"]
    whose = "yours" if role == "dealer" else "your opponent's"
    assert f"The crib gets 2♥ 9♠ ({whose}): likely worth {keep_fives['crib']:.1f}" in keep_fives["why"]
    throw_fives = next(o for o in got["options"] if o["discard"] == ["5H", "5S"])
    assert "Keeps J♦ Q♣ 2♥ 9♠: nothing before the starter" in throw_fives["why"]
    assert f"The crib gets 5♥ 5♠ (a pair, {whose})" in throw_fives["why"]


def test_top_and_the_three_player_deal(api: Api, capsys: pytest.CaptureFixture[str]) -> None:
    got = api.post("/api/discard", {"dealt": SIX, "role": "dealer"}).get_json()
    assert len(got["options"]) == 5  # the best five by default
    five = SIX[:5]
    got = api.post("/api/discard", {"dealt": five, "role": "pone", "variant": "three-player",
                                    "top": 3}).get_json()
    want = cli_json(capsys, *five, "--pone", "--keep", "4", "--top", "3")
    assert [o["keep"] for o in got["options"]] == [o["keep"] for o in want["options"]]
    assert got["variant"] == "three-player" and got["choices"] == 5


@pytest.mark.parametrize("body, words", [
    ({"role": "dealer"}, '"dealt"'),
    ({"dealt": "5H 5S JD QC 2H 9S", "role": "dealer"}, '"dealt"'),
    ({"dealt": SIX}, '"role"'),
    ({"dealt": SIX, "role": "crib"}, '"role"'),
    ({"dealt": SIX, "role": "dealer", "top": 0}, '"top"'),
    ({"dealt": SIX, "role": "dealer", "top": True}, '"top"'),
    ({"dealt": SIX, "role": "dealer", "variant": "nine-card"}, '"variant"'),
    ({"dealt": SIX, "role": "dealer", "variant": []}, '"variant"'),  # was 500: unhashable
    ({"dealt": SIX, "role": "dealer", "variant": {}}, '"variant"'),
    ({"dealt": SIX, "role": ["dealer"]}, '"role"'),
    ({"dealt": SIX, "role": "dealer", "variant": "five-card"}, "deals 5 cards, not 6"),
    ({"dealt": SIX[:4], "role": "dealer"}, "4 cards: a deal is 6 or 5 cards"),
    ({"dealt": [*SIX[:5], "5H"], "role": "dealer"}, "5H is given twice"),
    ({"dealt": [*SIX[:5], "1Z"], "role": "dealer"}, "1Z"),
])
def test_bad_input_is_400_json(api: Api, body: dict, words: str) -> None:
    response = api.post("/api/discard", body)
    assert response.status_code == 400
    assert words in response.get_json()["error"]


def test_not_json_and_no_csrf(api: Api) -> None:
    assert api.post("/api/discard", data="dealt", content_type="text/plain").status_code == 400
    assert api.post("/api/discard", data="{", content_type="application/json").status_code == 400
    assert api.post("/api/discard", {"dealt": SIX, "role": "dealer"}, csrf=False).status_code == 403


def test_a_locked_phone_may_ask(app: Flask, api: Api) -> None:
    assert api.post("/api/pin", {"pin": "4321"}).status_code == 200
    phone = Api(app.test_client())
    assert phone.post("/api/games", {}).status_code == 403
    assert phone.post("/api/discard", {"dealt": SIX, "role": "pone"}).status_code == 200


# --- the review after each deal ---------------------------------------------------------------


def _deals_sent(events: list[dict]) -> list[dict[str, tuple[list[str], list[str]]]]:
    """Per deal (as the events sent it), each seat's cards dealt and laid away."""
    deals: list[dict[str, tuple[list[str], list[str]]]] = []
    dealt: dict[str, list[str]] = {}
    for e in events:
        if e["type"] == "hand":
            if e["seat"] in dealt or not deals:
                dealt = {}
                deals.append({})
            dealt[e["seat"]] = e["cards"]
        elif e["type"] == "discard":
            deals[-1][e["seat"]] = (dealt[e["seat"]], e["cards"])
    return deals


def test_a_game_with_its_hands_entered_is_reviewed_each_deal(api: Api) -> None:
    game_id = api.new_game(players=["Ann", "Bob"])
    _, events = random_game(Settings.from_json({"players": ["Ann", "Bob"]}), random.Random(5))
    for event in events:
        api.event(game_id, event)
    review = api.get(f"/api/games/{game_id}/review").get_json()
    state = api.get(f"/api/games/{game_id}").get_json()["state"]
    sent = _deals_sent(events)
    finished = [h for h in state["history"] if not h["misdeal"]]
    assert len(review["deals"]) == len(finished) >= 5
    totals = {"A": 0.0, "B": 0.0}
    for deal, summary, hands in zip(review["deals"], finished, sent, strict=False):
        assert (deal["deal"], deal["dealer"]) == (summary["deal"], summary["dealer"])
        assert set(deal["seats"]) == set(hands) == {"A", "B"}
        for seat, r in deal["seats"].items():
            dealt, away = hands[seat]
            role = "dealer" if seat == deal["dealer"] else "pone"
            advice = advise_discards(parse_cards(dealt), role, pegging=False)
            chosen = next(o for o in advice.options if {c.name for c in o.discard} == set(away))
            assert (r["dealt"], sorted(r["discards"]), r["role"]) == (dealt, sorted(away), role)
            assert r["best"]["keep"] == [c.name for c in advice.options[0].keep]
            assert r["given_away"] == pytest.approx(advice.options[0].total - chosen.total, abs=1e-4)
            assert r["given_away"] >= 0
            totals[seat] += r["given_away"]
    players = {p["seat"]: p for p in review["players"]}
    assert players["A"]["name"] == "Ann" and players["A"]["deals"] == len(finished)
    assert players["A"]["given_away"] == pytest.approx(totals["A"], abs=1e-3)
    assert players["B"]["given_away"] == pytest.approx(totals["B"], abs=1e-3)
    assert totals["A"] > 0 and totals["B"] > 0  # random discards give points away


def test_a_game_without_hands_has_nothing_to_review(api: Api) -> None:
    game_id = api.new_game()
    _, events = random_game(Settings.from_json({}), random.Random(2), hands_known=False)
    for event in events[:60]:
        api.event(game_id, event)
    review = api.get(f"/api/games/{game_id}/review").get_json()
    assert review["deals"] == [] and [p["given_away"] for p in review["players"]] == [0, 0]
    assert api.get("/api/games/999/review").status_code == 404
