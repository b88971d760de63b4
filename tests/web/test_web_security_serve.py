"""``crib serve`` on every address, on real waitress: what it says at start, the table code from
another address on the network, the Host check and ``--allow-host``."""

from __future__ import annotations

import http.cookiejar
import ipaddress
import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import start_server, stop_server

from web.hosts import interface_addresses


def network_address() -> str | None:
    """One of this machine's IPv4 addresses that is not loopback: a phone's way in."""
    found = sorted(a for a in interface_addresses()
                   if ":" not in a and not ipaddress.ip_address(a).is_loopback)
    return found[0] if found else None


class Device:
    """A browser at ``base``: its own cookies (the session) and CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = self.call("GET", "api/session")[1]["csrf"]

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if method != "GET":
            request.add_header("X-CSRF-Token", self.csrf)
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path, str]]:
    """``crib serve --host 0.0.0.0``: its address, its second line, its data folder, its port."""
    data = tmp_path_factory.mktemp("everywhere")
    proc, url = start_server(data, "--host", "0.0.0.0", "--leds", "none",
                             "--allow-host", "crib.example")
    assert proc.stdout is not None
    said = proc.stdout.readline()
    yield url, said, data, url.rsplit(":", 1)[1].strip("/")
    stop_server(proc)


def code_in(data: Path) -> str:
    return str(json.loads((data / "web.json").read_text())["table_code"])


def test_the_start_says_who_can_watch_and_change(table: tuple[str, str, Path, str]) -> None:
    _, said, data, port = table
    code = code_in(data)
    assert said.startswith("  listening on every address: phones on the network can watch at http://")
    assert f"changing the game needs the table code {code}" in said
    assert re.search(rf"http://\S+:{port}/\?code={code}", said)
    assert "there is no PIN" in said and "--pin" in said


def test_the_pi_itself_changes_the_game_without_the_code(table: tuple[str, str, Path, str]) -> None:
    pi = Device(table[0])
    assert pi.call("POST", "api/games", {})[0] == 201
    status, shown = pi.call("GET", "api/code")
    assert status == 200 and shown["code"] == code_in(table[2]) and shown["here"] is True


def test_a_phone_on_the_network_needs_the_code_once(table: tuple[str, str, Path, str]) -> None:
    address = network_address()
    if address is None:
        pytest.skip("this machine has no network address but loopback")
    phone = Device(f"http://{address}:{table[3]}/")
    assert phone.call("GET", "api/games")[0] == 200  # watching needs nothing
    status, refused = phone.call("POST", "api/games", {})
    assert status == 403 and refused["need"] == "code"
    status, refused = phone.call("POST", "api/pin", {"pin": "1234"})  # nor the first PIN
    assert status == 403 and refused["need"] == "code"
    assert phone.call("GET", "api/code")[1] == {"admitted": False}
    assert phone.call("POST", "api/code", {"code": code_in(table[2]).lower()}) == (200, {"admitted": True})
    assert phone.call("POST", "api/games", {})[0] == 201
    status, shown = phone.call("GET", "api/code")
    assert shown["link"] == f"http://{address}:{table[3]}/?code={code_in(table[2])}"


def test_only_the_tables_names_are_answered(table: tuple[str, str, Path, str]) -> None:
    pi = Device(table[0])
    status, body = pi.call("GET", "api/session", headers={"Host": "evil.example"})
    assert status == 421 and "--allow-host evil.example" in body["error"]
    assert pi.call("GET", "api/session", headers={"Host": f"crib.example:{table[3]}"})[0] == 200
    assert pi.call("GET", "api/session", headers={"Host": f"localhost:{table[3]}"})[0] == 200


def test_a_restart_keeps_the_code_and_says_the_pin(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc, _ = start_server(data, "--host", "0.0.0.0", "--leds", "none")
    stop_server(proc)
    code = code_in(data)
    proc, _ = start_server(data, "--host", "0.0.0.0", "--leds", "none", "--pin", "2468")
    try:
        said = proc.stdout.readline()  # type: ignore[union-attr]
    finally:
        stop_server(proc)
    assert f"the table code {code}" in said and "and the table PIN" in said
    assert "no PIN" not in said


def test_on_this_computer_only_the_code_is_said_too(tmp_path: Path) -> None:
    proc, _ = start_server(tmp_path / "data", "--leds", "none")
    try:
        said = proc.stdout.readline()  # type: ignore[union-attr]
    finally:
        stop_server(proc)
    assert "crib serve --host 0.0.0.0" in said
    assert f"they need the table code {code_in(tmp_path / 'data')} to change the game" in said


@pytest.mark.parametrize("name", ["evil/..", "a b", "x" * 300])
def test_a_bad_allow_host_is_one_line_and_status_2(tmp_path: Path, name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "serve", "--port", "0", "--data", str(tmp_path),
         "--leds", "none", "--allow-host", name],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "--allow-host takes a host name" in done.stderr
