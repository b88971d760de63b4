"""The names the table answers to: any other ``Host`` is 421 (no DNS rebinding)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from flask import Flask

from companion.service import Companion
from web import create_app
from web.hosts import HostCheck


@pytest.mark.parametrize("path", ["/", "/api/session", "/api/games", "/static/app.js",
                                  "/api/code", "/api/nothing-here"])
def test_another_name_is_refused_with_421(app: Flask, path: str) -> None:
    response = app.test_client().get(path, headers={"Host": "evil.example:8121"})
    assert response.status_code == 421
    body = response.get_json()
    assert body["status"] == 421 and "--allow-host evil.example" in body["error"]


def test_a_change_from_another_name_is_refused_before_anything(app: Flask) -> None:
    client = app.test_client()
    csrf = client.get("/api/session").get_json()["csrf"]
    response = client.post("/api/games", json={}, headers={"Host": "evil.example",
                                                           "X-CSRF-Token": csrf})
    assert response.status_code == 421
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("host", ["localhost", "localhost:8121", "127.0.0.1:8121", "[::1]:8121",
                                  "LOCALHOST.", socket.gethostname(),
                                  f"{socket.gethostname()}.local:8121"])
def test_the_tables_own_names_are_served(app: Flask, host: str) -> None:
    assert app.test_client().get("/api/session", headers={"Host": host}).status_code == 200


def test_the_listening_address_and_allowed_names(companion: Companion, tmp_path: Path) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path, "LISTEN_HOST": "192.168.1.20",
                                 "ALLOWED_HOSTS": ["crib.home.arpa"]})
    client = app.test_client()
    for host in ("192.168.1.20:8121", "crib.home.arpa", "Crib.Home.Arpa:80"):
        assert client.get("/api/session", headers={"Host": host}).status_code == 200, host
    for host in ("192.168.1.21", "evil.example", "crib.home.arpa.evil.example"):
        assert client.get("/api/session", headers={"Host": host}).status_code == 421, host


def test_listening_everywhere_serves_every_own_address(companion: Companion, tmp_path: Path) -> None:
    from web.hosts import interface_addresses

    app = create_app(companion, {"DATA_DIR": tmp_path, "LISTEN_HOST": "0.0.0.0"})
    client = app.test_client()
    for address in interface_addresses():
        shown = f"[{address}]" if ":" in address else address
        assert client.get("/", headers={"Host": f"{shown}:8121"}).status_code == 200, address
    assert client.get("/", headers={"Host": "203.0.113.9"}).status_code == 421


def test_an_address_that_comes_later_is_found() -> None:
    """A Pi that joins the Wi-Fi after the companion started: its new address is looked up."""
    now: set[str] = set()
    check = HostCheck("0.0.0.0", hostname="pi", addresses=lambda: set(now), refresh_s=0.0)
    assert not check.allows("192.168.1.20:8121")
    now.add("192.168.1.20")
    assert check.allows("192.168.1.20:8121")
    assert not HostCheck("127.0.0.1", hostname="pi", addresses=lambda: {"192.168.1.20"}).allows(
        "192.168.1.20")  # listening on this computer only, its other addresses are not its names


def test_a_request_with_no_host_is_served(app: Flask) -> None:
    """HTTP/1.0 without a Host names nothing (a browser always sends one)."""
    assert app.extensions["crib"].hosts.allows(None)
    assert app.extensions["crib"].hosts.allows("")
