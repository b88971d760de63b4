"""``crib serve`` under many idle connections: sockets that send nothing neither fill the server
nor hold it up, idle ones are closed, and a live stream is never cut for being quiet."""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browserkit import start_server, stop_server
from webhelpers import read_until_quiet, serving

import companion.service as service
from companion.service import Companion, ServeConfig, build_app, make_server
from cribbage.gamelog import GameStore

IDLE_SOCKETS = 150  # more than waitress's default connection limit (100) and the old 114


def open_idle(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` connections that send nothing (a phone's spare sockets, or a slow attack)."""
    return [socket.create_connection((host, port), timeout=5) for _ in range(count)]


def host_port(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    return host, int(port)


def test_a_request_is_answered_while_many_idle_sockets_are_open(tmp_path: Path) -> None:
    proc, url = start_server(tmp_path / "data", "--leds", "none", stderr=subprocess.PIPE)
    idle: list[socket.socket] = []
    try:
        idle = open_idle(*host_port(url), IDLE_SOCKETS)
        time.sleep(0.5)  # let the server accept them all
        started = time.monotonic()
        with urllib.request.urlopen(url + "api/session", timeout=5) as response:
            assert response.status == 200
            assert "csrf" in json.loads(response.read())
        assert time.monotonic() - started < 5
    finally:
        for sock in idle:
            sock.close()
        stop_server(proc)


@pytest.fixture
def quick_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    """``crib serve``'s own server in this process, idle connections closed after 1 s, a live
    stream's keep-alive comment every 0.3 s."""
    monkeypatch.setattr(service, "IDLE_TIMEOUT_S", 1)
    monkeypatch.setattr(service, "CLEANUP_INTERVAL_S", 1)
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    config = ServeConfig(data_dir=tmp_path, port=0, web={"SSE_HEARTBEAT": 0.3})
    app = build_app(config, companion)
    with serving(make_server(config, app)) as port:
        yield "127.0.0.1", port
        app.extensions["crib"].hub.close_all()
    companion.close()


def closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except (TimeoutError, ConnectionError):
        return False


def test_idle_sockets_are_closed_and_a_live_stream_stays(quick_server: tuple[str, int]) -> None:
    host, port = quick_server
    stream = socket.create_connection((host, port), timeout=5)
    stream.sendall(f"GET /api/stream HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    idle = open_idle(host, port, 20)
    try:
        assert all(closed_by_server(sock, within=5) for sock in idle)
        # the stream outlived them, and its keep-alive comments still come
        stream.settimeout(0.1)
        seen = read_until_quiet(stream)
        assert b"200 OK" in seen and b"text/event-stream" in seen, seen
        stream.settimeout(3)
        assert b": still here" in stream.recv(4096)
    finally:
        stream.close()
        for sock in idle:
            sock.close()
