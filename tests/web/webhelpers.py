"""Helpers for the page's tests: the API client with its CSRF token, a known deal, and a real
server run in a thread."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask.testing import FlaskClient


class Api:
    """Flask's test client plus the CSRF token: ``api.post("/api/games", {...})``."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.csrf = client.get("/api/session").get_json()["csrf"]

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, **kw)

    def post(self, path: str, body: Any = None, *, csrf: bool = True, **kw: Any) -> Any:
        headers = dict(kw.pop("headers", {}))
        if csrf:
            headers["X-CSRF-Token"] = self.csrf
        if body is not None and "data" not in kw:
            kw["json"] = body
        return self.client.post(path, headers=headers, **kw)

    def event(self, game_id: int, event: dict[str, Any], expect: int = 200) -> dict[str, Any]:
        response = self.post(f"/api/games/{game_id}/events", event)
        assert response.status_code == expect, response.get_json()
        return response.get_json()  # type: ignore[no-any-return]

    def new_game(self, **settings: Any) -> int:
        settings.setdefault("players", ["Alice", "Bob"])
        response = self.post("/api/games", settings)
        assert response.status_code == 201, response.get_json()
        return int(response.get_json()["game_id"])


# A deal that the engine accepts: Bob deals, Alice leads; every count is known.
DEAL = [
    {"type": "dealer", "seat": "B"},
    {"type": "starter", "card": "5D"},
    {"type": "play", "seat": "A", "card": "JC"},
    {"type": "play", "seat": "B", "card": "5S"},  # fifteen for Bob
    {"type": "play", "seat": "A", "card": "5H"},  # a pair for Alice
    {"type": "play", "seat": "B", "card": "TD"},  # 30
    {"type": "go", "seat": "A"},  # Bob's last card: go for one
    {"type": "play", "seat": "A", "card": "4H"},
    {"type": "play", "seat": "B", "card": "9C"},
    {"type": "play", "seat": "A", "card": "6D"},
    {"type": "play", "seat": "B", "card": "9H"},  # last card
    {"type": "show", "seat": "A", "cards": ["JC", "5H", "4H", "6D"]},
    {"type": "show", "seat": "B", "cards": ["5S", "TD", "9C", "9H"]},
    {"type": "crib", "cards": ["2C", "3S", "QH", "KS"]},
]


@contextmanager
def serving(server: Any) -> Iterator[int]:
    """``server`` (waitress's, made but not running: ``guarded_server``, ``make_server``) run in
    a thread; yields its port, and closes it and its threads on leaving."""
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    try:
        yield int(server.effective_port)
    finally:
        server.close()
        server.task_dispatcher.shutdown()
        runner.join(10)


def read_until_quiet(sock: socket.socket) -> bytes:
    """What the server sends on ``sock`` until it closes the connection, resets it, or sends
    nothing for the socket's timeout."""
    answer = b""
    try:
        while part := sock.recv(65536):
            answer += part
    except OSError:
        pass
    return answer
