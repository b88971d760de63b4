"""Safe on a shared network: CSRF on every change, the table PIN, throttled guesses."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from webhelpers import Api

from companion.service import Companion
from web import create_app


def test_every_change_needs_the_csrf_token(api: Api) -> None:
    game = api.new_game()
    changes = [
        ("/api/games", {"players": ["A", "B"]}),
        (f"/api/games/{game}/events", {"type": "dealer", "seat": "A"}),
        ("/api/count", {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S"}),
        ("/api/pin", {"pin": "1234"}),
        ("/api/unlock", {"pin": "1234"}),
        ("/api/photos", None),
    ]
    for path, body in changes:
        missing = api.post(path, body, csrf=False)
        assert missing.status_code == 403, path
        assert missing.get_json()["need"] == "csrf"
        wrong = api.post(path, body, csrf=False, headers={"X-CSRF-Token": "forged"})
        assert wrong.status_code == 403, path
    assert api.get(f"/api/games/{game}/events").get_json()["events"] == []
    assert len(api.get("/api/games").get_json()["games"]) == 1
    assert api.get("/api/session").get_json()["pin"] == "unset"


def test_another_browser_has_another_token(app: Flask, api: Api) -> None:
    other = app.test_client()
    response = other.post("/api/games", json={}, headers={"X-CSRF-Token": api.csrf})
    assert response.status_code == 403


def test_first_start_sets_a_pin_then_changes_need_it(app: Flask, api: Api) -> None:
    game = api.new_game()
    assert api.post("/api/pin", {"pin": "12"}).status_code == 400
    assert api.post("/api/pin", {"pin": "4321"}).get_json() == {"pin": "set", "unlocked": True}
    # this session set it and stays unlocked; another phone is locked out of changes
    assert api.event(game, {"type": "dealer", "seat": "A"})["state"]["dealer"] == "A"
    phone = Api(app.test_client())
    assert phone.get("/api/session").get_json()["unlocked"] is False
    refused = phone.post(f"/api/games/{game}/events", {"type": "undo"})
    assert refused.status_code == 403 and refused.get_json()["need"] == "pin"
    assert phone.post("/api/games", {}).status_code == 403
    assert phone.post("/api/pin", {"pin": "9999"}).status_code == 403
    # reading stays open
    assert phone.get(f"/api/games/{game}").status_code == 200
    assert phone.get("/").status_code == 200
    # the count of a hand changes nothing, so it needs no PIN
    assert phone.post("/api/count", {"hand": ["5C", "5D", "5H", "JS"],
                                     "starter": "5S"}).get_json()["total"] == 29
    assert phone.post("/api/unlock", {"pin": "1111"}).status_code == 403
    assert phone.post("/api/unlock", {"pin": "4321"}).get_json() == {"unlocked": True}
    # the dealer was chosen from another phone: this one names the event it means to undo
    assert phone.event(game, {"type": "undo", "expect": 1})["state"]["dealer"] is None
    assert phone.post("/api/lock", {}).get_json() == {"unlocked": False}
    assert phone.post(f"/api/games/{game}/events", {"type": "undo"}).status_code == 403


def test_the_pin_header_works_for_scripts(app: Flask, api: Api) -> None:
    api.post("/api/pin", {"pin": "2468"})
    script = Api(app.test_client())
    ok = script.post("/api/games", {}, headers={"X-Table-Pin": "2468"})
    assert ok.status_code == 201
    bad = script.post("/api/games", {}, headers={"X-Table-Pin": "0000"})
    assert bad.status_code == 403


def test_wrong_pins_are_throttled(app: Flask, api: Api) -> None:
    api.post("/api/pin", {"pin": "2468"})
    guesser = Api(app.test_client())
    codes = [guesser.post("/api/unlock", {"pin": f"{n:04d}"}).status_code for n in range(7)]
    assert codes[:5] == [403] * 5 and codes[5:] == [429, 429]
    assert guesser.post("/api/unlock", {"pin": "2468"}).status_code == 429


def test_no_pin_chosen(app: Flask, api: Api) -> None:
    assert api.post("/api/pin", {"pin": None}).get_json()["pin"] == "none"
    phone = Api(app.test_client())
    assert phone.post("/api/games", {}).status_code == 201


def test_the_pin_survives_a_restart_and_the_cli_can_set_it(
    companion: Companion, tmp_path: Path
) -> None:
    first = create_app(companion, {"DATA_DIR": tmp_path, "PIN": "1357"})
    assert Api(first.test_client()).post("/api/games", {}).status_code == 403
    again = create_app(companion, {"DATA_DIR": tmp_path})
    client = Api(again.test_client())
    assert client.get("/api/session").get_json()["pin"] == "set"
    assert client.post("/api/unlock", {"pin": "1357"}).status_code == 200
    cleared = create_app(companion, {"DATA_DIR": tmp_path, "PIN": ""})
    assert Api(cleared.test_client()).post("/api/games", {}).status_code == 201
    stored = (tmp_path / "web.json").read_text()
    assert "1357" not in stored


def test_create_app_needs_a_data_folder(companion: Companion) -> None:
    with pytest.raises(ValueError, match="DATA_DIR"):
        create_app(companion, {})


def test_pages_carry_safety_headers(app: Flask) -> None:
    page = app.test_client().get("/")
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    cookie = page.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
