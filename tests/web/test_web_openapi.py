"""The OpenAPI file is valid and documents every route of the JSON API (and nothing else)."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from webhelpers import Api

yaml = pytest.importorskip("yaml", reason="pip install -e '.[dev]' brings pyyaml")
validator = pytest.importorskip(
    "openapi_spec_validator", reason="pip install -e '.[dev]' brings openapi-spec-validator"
)


def spec(api: Api) -> dict:
    response = api.get("/api/openapi.yaml")
    assert response.status_code == 200
    return yaml.safe_load(response.get_data(as_text=True))  # type: ignore[no-any-return]


def test_the_file_is_valid_openapi(api: Api) -> None:
    validator.validate(spec(api))


def test_every_api_route_is_documented(app: Flask, api: Api) -> None:
    documented = {
        (path, method.upper())
        for path, item in spec(api)["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }
    served = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            if method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
                served.add((path, method))
    assert served == documented


def test_the_event_types_are_the_engines(api: Api) -> None:
    from cribbage.game.events import META_TYPES, TABLE_TYPES

    enum = spec(api)["components"]["schemas"]["Event"]["properties"]["type"]["enum"]
    assert enum == [*TABLE_TYPES, *META_TYPES]


def _documented(schema: dict, spec_: dict) -> set[str]:
    if "$ref" in schema:
        schema = spec_["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return set(schema.get("properties", {}))


def test_every_key_the_api_sends_is_documented(api: Api) -> None:
    """A whole game at random through the API, a correction, an undo, a refusal: every key of
    the state, of the game list and of the event records is in the OpenAPI file."""
    import random

    from cribbage.game import Settings
    from cribbage.game.simulate import random_game

    doc = spec(api)
    schemas = doc["components"]["schemas"]
    game_id = api.post("/api/games", {"players": ["Ann", "Bob"]}).get_json()["game_id"]
    _, events = random_game(Settings.from_json({"players": ["Ann", "Bob"]}), random.Random(3))
    state_keys: set[str] = set()
    for event in events:
        state_keys |= set(api.post(f"/api/games/{game_id}/events", event).get_json()["state"])
    plays = [n for n, e in enumerate(events, 1) if e["type"] == "play"]
    fixed = api.post(f"/api/games/{game_id}/events", {"type": "undo"}).get_json()
    state_keys |= set(fixed["state"])
    refused = api.post(f"/api/games/{game_id}/events",
                       {"type": "correct", "event": plays[0], "with": {"type": "starter", "card": "5H"}})
    assert refused.status_code in (400, 422)
    error_keys = set(refused.get_json())
    listing = api.get("/api/games").get_json()
    records = api.get(f"/api/games/{game_id}/events").get_json()["events"]

    assert state_keys <= _documented(schemas["GameState"]["properties"]["state"], doc)
    assert set().union(*(set(g) for g in listing["games"])) <= _documented(schemas["GameSummary"], doc)
    assert set().union(*(set(r) for r in records)) <= _documented(schemas["EventRecord"], doc)
    assert error_keys <= _documented(schemas["Error"], doc)


def test_the_session_and_its_variants_are_documented(api: Api) -> None:
    """The session carries the engine's variants and colours; every key of it is documented."""
    from cribbage.game.settings import COLOURS, VARIANTS

    doc = spec(api)
    schemas = doc["components"]["schemas"]
    session = api.get("/api/session").get_json()
    assert set(session) <= _documented(schemas["Session"], doc)
    assert session["variants"] == {name: v.to_json() for name, v in VARIANTS.items()}
    assert session["colours"] == list(COLOURS)
    for variant in session["variants"].values():
        assert set(variant) <= _documented(schemas["Variant"], doc)
    assert schemas["Settings"]["properties"]["variant"]["enum"] == list(VARIANTS)


def test_every_key_the_coach_sends_is_documented(api: Api) -> None:
    """``POST /api/discard`` and a review of a game played with its hands entered."""
    import random

    from cribbage.game import Settings
    from cribbage.game.simulate import random_game

    doc = spec(api)
    schemas = doc["components"]["schemas"]
    advice = api.post("/api/discard", {"dealt": ["5H", "5S", "JD", "QC", "2H", "9S"], "role": "dealer"})
    assert advice.status_code == 200
    advice = advice.get_json()
    assert set(advice) <= _documented(schemas["DiscardAdvice"], doc)
    assert set().union(*(set(o) for o in advice["options"])) <= _documented(schemas["DiscardOption"], doc)
    game_id = api.post("/api/games", {"players": ["Ann", "Bob"]}).get_json()["game_id"]
    _, events = random_game(Settings.from_json({"players": ["Ann", "Bob"]}), random.Random(4), max_deals=2)
    for event in events:
        api.post(f"/api/games/{game_id}/events", event)
    review = api.get(f"/api/games/{game_id}/review").get_json()
    assert review["deals"]
    assert set(review) <= _documented(schemas["Review"], doc)
    items = schemas["Review"]["properties"]
    assert set().union(*(set(d) for d in review["deals"])) <= set(items["deals"]["items"]["properties"])
    assert set().union(*(set(p) for p in review["players"])) <= set(items["players"]["items"]["properties"])
    seats = [r for d in review["deals"] for r in d["seats"].values()]
    assert set().union(*(set(r) for r in seats)) <= _documented(schemas["SeatReview"], doc)
    best = schemas["SeatReview"]["properties"]["best"]["properties"]
    assert set().union(*(set(r["best"]) for r in seats)) <= set(best)
