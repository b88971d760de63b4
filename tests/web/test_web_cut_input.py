"""A cut with a seat's card left empty is refused in words (400), on events, on the preview and
inside a correction, and the game is unchanged (it was a 500: the empty card was dropped)."""

from __future__ import annotations

from flask import Flask
from webhelpers import Api

EMPTY = {"type": "cut", "cards": {"A": "", "B": "9C"}}


def test_an_empty_card_in_a_cut_is_400_everywhere(app: Flask, api: Api) -> None:
    game = api.new_game()
    before = api.get(f"/api/games/{game}").get_json()["state"]
    for path, body in (("events", EMPTY), ("preview", EMPTY),
                       ("events", {"type": "correct", "event": 1, "with": EMPTY}),
                       ("preview", {"type": "correct", "event": 1, "with": EMPTY})):
        answer = api.post(f"/api/games/{game}/{path}", body)
        assert answer.status_code == 400, (path, body, answer.get_json())
        assert "not a card" in answer.get_json()["error"]
    assert api.get(f"/api/games/{game}").get_json()["state"] == before
    twice = api.post(f"/api/games/{game}/events", {"type": "cut", "cards": {"A": "9C", "B": "9C"}})
    assert twice.status_code == 400 and "twice" in twice.get_json()["error"]


def test_the_preview_needs_the_code_like_a_change(app: Flask, api: Api) -> None:
    game = api.new_game()
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.168.1.66"
    phone = Api(stranger)
    answer = phone.post(f"/api/games/{game}/preview", {"type": "dealer", "seat": "A"})
    assert answer.status_code == 403 and answer.get_json()["need"] == "code"
