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
