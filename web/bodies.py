"""A request's JSON body, read within the engine's limits: every ``POST`` of the API uses it.

>>> from flask import Flask
>>> with Flask(__name__).test_request_context(json={"pin": "4321"}):
...     body_object()
{'pin': '4321'}
"""

from __future__ import annotations

from typing import Any

from flask import request

from cribbage.errors import InputError
from cribbage.game.limits import MAX_EVENT_BYTES, load_json
from web.errors import ApiError


def body_object() -> dict[str, Any]:
    """The request's JSON body, which must be an object within the engine's limits
    (:mod:`cribbage.game.limits`: 16 KB, nested 32 deep, numbers of 18 digits, valid Unicode)."""
    if request.content_length is not None and request.content_length > MAX_EVENT_BYTES:
        raise ApiError(413, "the request is too large")
    if not request.is_json:
        raise ApiError(400, "send a JSON object (Content-Type: application/json)")
    raw = request.get_data(cache=True)
    if len(raw) > MAX_EVENT_BYTES:
        raise ApiError(413, "the request is too large")
    try:
        data = load_json(raw, what="the request")
    except InputError as exc:
        raise ApiError(400, str(exc)) from None
    except ValueError:
        data = None  # not JSON at all
    if not isinstance(data, dict):
        raise ApiError(400, "send a JSON object (Content-Type: application/json)")
    return data
