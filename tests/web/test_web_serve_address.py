"""``crib serve`` says addresses that answer: on 127.0.0.1 that it is for this computer and how to let
phones in; on ``::`` (IPv6 alone) ``[::1]`` and the machine's IPv6 address, in the lines and the link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browserkit import spawn_server, stop_server


def test_a_localhost_server_says_how_to_let_phones_in(tmp_path: Path) -> None:
    proc = spawn_server(tmp_path / "data", "--leds", "none", host="127.0.0.1")
    assert proc.stdout is not None
    try:
        first = proc.stdout.readline()  # printed once it listens
        second = proc.stdout.readline()  # printed with it, before the server waits for requests
    finally:
        stop_server(proc)
    assert re.search(r"open (http://127\.0\.0\.1:\d+/)", first), first  # as browserkit reads it
    assert "phone" not in first and "this computer's browser" in first
    assert "crib serve --host 0.0.0.0" in second and "make run HOST=0.0.0.0" in second


def test_a_server_on_every_ipv6_address_points_at_addresses_that_answer(tmp_path: Path) -> None:
    """``--host ::``: waitress listens on IPv6 alone, so 127.0.0.1 would refuse; the lines name
    ``[::1]`` for this computer and the machine's IPv6 address (where it has one) for phones,
    and each answers."""
    import urllib.request

    proc = spawn_server(tmp_path / "data", "--leds", "none", host="::")
    assert proc.stdout is not None
    try:
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        here = re.search(r"open (http://\S+/) ", first)
        assert here is not None and here.group(1).startswith("http://[::1]:"), first
        urls = [here.group(1), *re.findall(r"http://\[[0-9a-f:]+\]:\d+/", second)]
        assert "127.0.0.1" not in first + second
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy in between
        for url in urls:
            with direct.open(url, timeout=10) as answer:
                assert answer.status == 200, url
    finally:
        stop_server(proc)


def test_the_pages_link_on_every_ipv6_address_names_the_machines_ipv6_address(
        companion: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The New tab's link and QR code on ``--host ::``: an IPv6 address of this machine (a
    global one before a unique-local one), never its IPv4 one, which refuses there."""
    import web.hosts
    from web import create_app

    monkeypatch.setattr(web.hosts, "interface_addresses",
                        lambda: {"127.0.0.1", "192.168.1.20", "::1", "fe80::1", "fd00::2"})
    monkeypatch.setattr(web.hosts, "network_address", lambda: "192.168.1.20")
    client = create_app(companion, {"DATA_DIR": tmp_path, "LISTEN_HOST": "::"}).test_client()
    code = client.get("/api/code").get_json()  # from this computer: the Pi
    assert code["link"].startswith("http://[fd00::2]/?code="), code
    assert code["address"] == "http://[fd00::2]/" and code["reachable"] is True
