"""Bad input to the JSON API gets a 4xx with ``{"error": ...}`` and changes nothing.

Every route that takes a JSON body, listed from Flask's url_map (a new route is covered by
itself), is sent each kind of hostile body: nested 5,000 deep, a lone surrogate, a number of
4,000 digits, NaN, bytes that are not UTF-8, not JSON, not an object, too large. The bounds of
each event's numbers (:mod:`cribbage.game.limits`) are checked at and past their edges.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from webhelpers import DEAL, Api

from companion.service import Companion
from cribbage.game.limits import MAX_ADJUST, MAX_CLAIM, MAX_DEPTH, MAX_EVENT_BYTES, MAX_PENALTY
from cribbage.gamelog import GameStore
from web import create_app

NO_JSON_BODY = {
    "api.lock": "takes no body",
    "api.upload_photo": "a form upload (tests/web/test_web_photos.py)",
}
"""State-changing routes that read no JSON body; every other POST or PUT under /api/ does."""

DEEP = "[" * 5000 + "]" * 5000
BAD_BODIES: dict[str, tuple[bytes, str]] = {
    "nested 5000 deep": (DEEP.encode(), "too deeply nested"),
    "nested deep in a field": (
        ('{"type": "adjust", "seat": "A", "points": 1, "reason": "x", "pin": "1234", '
         '"hand": ["5C"], "action": "dismiss", "x": ' + DEEP + "}").encode(),
        "too deeply nested",
    ),
    "one level too deep": (
        ('{"x": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}").encode(), "too deeply nested"
    ),
    "a lone surrogate": (
        b'{"type": "adjust", "seat": "A", "points": 1, "reason": "\\ud800", "players": '
        b'["Ann", "Bob"], "pin": "1234", "action": "dismiss"}',
        "reason is not valid Unicode",
    ),
    "a lone surrogate in a key": (b'{"\\udfff": 1}', "not valid Unicode"),
    "a number of 4000 digits": (
        b'{"type": "adjust", "seat": "A", "points": 1' + b"0" * 3999 + b"}", "4000 digits"
    ),
    "NaN": (b'{"type": "adjust", "seat": "A", "points": NaN}', "NaN"),
    "bytes that are not UTF-8": (b'{"type": "adjust", "reason": "\xff\xfe"}', "not UTF-8"),
    "not JSON": (b'{"type": ', "JSON object"),
    "not an object": (b'["go", "A"]', "JSON object"),
    "too large": (b'{"x": "' + b"a" * MAX_EVENT_BYTES + b'"}', "too large"),
}


class FakeCamera:
    """A real companion plus a camera that records what it is asked to change."""

    def __init__(self, companion: Companion) -> None:
        self.companion = companion
        self.zones: dict[str, Any] = {"players": 2, "centre": [0.3, 0.3, 0.7, 0.7]}
        self.flagged = [{"id": 3, "frame": 1, "zone": "B", "card": "5S", "confidence": 0.4,
                         "event": {"type": "play", "seat": "B", "card": "5S"}}]
        self.changes: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.companion, name)

    def camera_status(self) -> dict[str, Any]:
        return {"state": "running", "flagged": self.flagged, "zones": self.zones, "game": 1}

    def camera_snapshot(self) -> bytes | None:
        return None

    def camera_zones(self) -> dict[str, Any]:
        return self.zones

    def set_camera_zones(self, zones: dict[str, Any]) -> dict[str, Any]:
        self.changes.append(("zones", zones))
        self.zones = zones
        return zones

    def resolve_flag(self, flag_id: int, action: str, card: str | None = None) -> dict[str, Any]:
        self.changes.append(("flag", flag_id, action, card))
        return {}

    def camera_crop(self, name: str) -> bytes | None:
        return None


@pytest.fixture
def table(tmp_path: Path) -> Iterator[FakeCamera]:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    yield FakeCamera(companion)
    companion.close()


@pytest.fixture
def cam_app(table: FakeCamera, tmp_path: Path) -> Flask:
    return create_app(table, {"DATA_DIR": tmp_path, "TESTING": True})


@pytest.fixture
def cam(cam_app: Flask) -> Api:
    return Api(cam_app.test_client())


def json_routes(app: Flask) -> list[tuple[str, str, str]]:
    """``(method, rule, endpoint)`` for every POST or PUT under /api/ that reads a JSON body."""
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.endpoint in NO_JSON_BODY:
            continue
        for method in sorted((rule.methods or set()) & {"POST", "PUT", "PATCH"}):
            routes.append((method, rule.rule, rule.endpoint))
    return sorted(routes)


def concrete(rule: str, game_id: int) -> str:
    return re.sub(r"<int:game_id>", str(game_id), rule).replace("<int:flag_id>", "3")


def snapshot(api: Api, table: FakeCamera, game_id: int) -> dict[str, Any]:
    session = api.get("/api/session").get_json()
    return {
        "games": api.get("/api/games").get_json(),
        "state": api.get(f"/api/games/{game_id}").get_json()["state"],
        "events": api.get(f"/api/games/{game_id}/events").get_json(),
        "pin": (session["pin"], session["unlocked"]),
        "camera": (json.dumps(table.zones), list(table.changes)),
    }


@pytest.fixture
def game(cam: Api) -> int:
    game_id = cam.new_game(muggins=True, counting="claim")
    for event in DEAL[:6]:
        cam.event(game_id, event)
    return game_id


def test_the_routes_are_listed_from_the_url_map(cam_app: Flask) -> None:
    endpoints = {endpoint for _, _, endpoint in json_routes(cam_app)}
    assert {"api.new_game", "api.post_event", "api.preview_event", "api.count", "api.unlock",
            "api.set_pin", "camera.put_zones", "camera.resolve"} <= endpoints
    served = {rule.endpoint for rule in cam_app.url_map.iter_rules()}
    assert set(NO_JSON_BODY) <= served  # an exclusion for a route that is gone is stale


@pytest.mark.parametrize("kind", list(BAD_BODIES))
def test_every_json_route_refuses_a_bad_body_and_changes_nothing(
    cam: Api, cam_app: Flask, table: FakeCamera, game: int, kind: str
) -> None:
    body, words = BAD_BODIES[kind]
    before = snapshot(cam, table, game)
    for method, rule, endpoint in json_routes(cam_app):
        path = concrete(rule, game)
        response = cam.client.open(path, method=method, data=body,
                                   content_type="application/json",
                                   headers={"X-CSRF-Token": cam.csrf})
        assert 400 <= response.status_code < 500, (endpoint, kind, response.status_code)
        answer = response.get_json()
        assert isinstance(answer, dict) and words in answer["error"], (endpoint, kind, answer)
        assert snapshot(cam, table, game) == before, (endpoint, kind)


def test_the_depth_limit_lets_a_real_event_through(cam: Api, game: int) -> None:
    seen = {"frame": 7, "confidence": 0.9}
    event = {"type": "correct", "event": 6, "with": {**DEAL[5], "seen": seen}}
    nested = {**event, "note": [[[[[]]]]]}  # ignored keys, still within the limit
    assert cam.event(game, nested)["state"]["events"] == 7


def test_a_surrogate_in_a_player_name_is_refused_naming_the_field(cam: Api) -> None:
    response = cam.post("/api/games", data=b'{"players": ["Ann", "B\\ud83d"]}',
                        content_type="application/json")
    assert response.status_code == 400
    assert "players[1]" in response.get_json()["error"]
    assert cam.get("/api/games").get_json()["games"] == []


def test_a_surrogate_in_the_pin_is_refused(cam: Api) -> None:
    response = cam.post("/api/pin", data=b'{"pin": "12\\udc34"}', content_type="application/json")
    assert response.status_code == 400 and "pin" in response.get_json()["error"]
    assert cam.get("/api/session").get_json()["pin"] != "set"


def test_an_emoji_is_still_welcome(cam: Api) -> None:
    response = cam.post("/api/games", {"players": ["Ann \U0001f0cf", "Bob"]})
    assert response.status_code == 201
    assert response.get_json()["state"]["settings"]["players"][0] == "Ann \U0001f0cf"


@pytest.mark.parametrize(
    ("event", "refused"),
    [
        ({"type": "adjust", "seat": "A", "points": 10**15}, True),
        ({"type": "adjust", "seat": "A", "points": MAX_ADJUST + 1}, True),
        ({"type": "adjust", "seat": "A", "points": "99999999999999999999999"}, True),
        ({"type": "adjust", "seat": "A", "points": "²"}, True),
        ({"type": "adjust", "seat": "A", "points": 0}, True),
        ({"type": "adjust", "seat": "A", "points": MAX_ADJUST}, False),
        ({"type": "muggins", "seat": "B", "event": 10**15}, True),
        ({"type": "correct", "event": 10**15, "with": {"type": "go", "seat": "A"}}, True),
        ({"type": "play", "seat": "A", "card": "4H", "claim": MAX_CLAIM + 1}, True),
        ({"type": "play", "seat": "A", "card": "4H", "claim": -1}, True),
        ({"type": "hand", "seat": "A", "cards": ["AC", "2C", "3C", "4C", "6C", "7C", "8C"]},
         True),
    ],
)
def test_numbers_are_bounded_to_their_domain(
    cam: Api, table: FakeCamera, game: int, event: dict[str, Any], refused: bool
) -> None:
    before = snapshot(cam, table, game)
    response = cam.post(f"/api/games/{game}/events", event)
    if not refused:
        assert response.status_code == 200, response.get_json()
        return
    assert response.status_code in (400, 422), response.get_json()
    answer = response.get_json()
    assert answer["error"] and answer.get("rule") in ("event", "hand-size", None), answer
    assert snapshot(cam, table, game) == before


@pytest.mark.parametrize("penalty", [10**15, MAX_PENALTY + 1, -1])
def test_a_misdeal_penalty_past_its_range_is_refused(cam: Api, penalty: int) -> None:
    game = cam.new_game()
    cam.event(game, {"type": "dealer", "seat": "A"})
    answer = cam.event(game, {"type": "misdeal", "penalty": penalty}, expect=422)
    assert f"from 0 to {MAX_PENALTY}" in answer["detail"]
    state = cam.get(f"/api/games/{game}").get_json()["state"]
    assert state["winner"] is None and state["events"] == 1


def test_the_largest_misdeal_penalty_is_pegged(cam: Api) -> None:
    game = cam.new_game()
    cam.event(game, {"type": "dealer", "seat": "A"})
    state = cam.event(game, {"type": "misdeal", "penalty": MAX_PENALTY})["state"]
    assert state["scores"] == {"A": 0, "B": MAX_PENALTY}


def test_a_claim_at_the_limit_is_judged_by_the_rules(cam: Api, game: int) -> None:
    answer = cam.event(game, {"type": "play", "seat": "A", "card": "4H", "claim": MAX_CLAIM},
                       expect=422)
    assert answer["rule"] == "over-claim"  # in range: the count refuses it, not the bounds


def test_the_documented_bounds_are_the_engines(cam: Api) -> None:
    yaml = pytest.importorskip("yaml")
    from cribbage.game.limits import MAX_EVENT_NUMBER

    spec = yaml.safe_load(cam.get("/api/openapi.yaml").get_data(as_text=True))
    fields = spec["components"]["schemas"]["Event"]["properties"]
    bounds = {key: (fields[key]["minimum"], fields[key]["maximum"])
              for key in ("claim", "points", "penalty", "event")}
    assert bounds == {"claim": (0, MAX_CLAIM), "points": (1, MAX_ADJUST),
                      "penalty": (0, MAX_PENALTY), "event": (1, MAX_EVENT_NUMBER)}
    text = " ".join(spec["info"]["description"].split())
    assert f"at most {MAX_EVENT_BYTES} bytes" in text and f"at most {MAX_DEPTH} deep" in text
