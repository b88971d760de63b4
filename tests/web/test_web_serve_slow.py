"""``crib serve``'s server against slow clients and huge bodies, on real sockets on loopback:
connections per address are bounded, a request head must come within its time, the Pi's own
page is served while many slow sockets are open, and a body larger than the API accepts is
refused before it is read, and one TMPDIR cannot hold is answered 507 or 503."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import socket
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from webhelpers import read_until_quiet, serving

import companion.server
from companion.server import guarded_server
from companion.service import Companion, ServeConfig, build_app, make_server
from cribbage.gamelog import GameStore

PER_ADDRESS, LIMIT, RESERVE = 8, 40, 8


def can_bind(address: str) -> bool:
    try:
        with socket.socket() as probe:
            probe.bind((address, 0))
    except OSError:
        return False
    return True


pytestmark = pytest.mark.skipif(not can_bind("127.0.0.2"),
                                reason="this machine cannot send from 127.0.0.2")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    companion = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    config = ServeConfig(data_dir=tmp_path, port=0)
    app = build_app(config, companion)
    yield config, app
    app.extensions["crib"].hub.close_all()
    companion.close()


def slow(port: int, source: str) -> socket.socket:
    """A connection from ``source`` that begins a request head and sends no more."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return sock


def closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionError:
        return True


def cut_while_trickling(sock: socket.socket, pieces: Iterable[bytes]) -> bool:
    """Send ``pieces`` one at a time, each once the server has held the connection 0.2 s more:
    did the server cut it before they were all sent?"""
    for piece in pieces:
        try:
            sock.sendall(piece)
        except OSError:
            return True
        if closed_by_server(sock, within=0.2):
            return True
    return False


def test_many_slow_sockets_leave_the_pis_page_served(table: tuple[Any, Any]) -> None:
    _, app = table
    server = guarded_server(app, host="127.0.0.1", port=0, threads=4, limit=LIMIT,
                            per_address=PER_ADDRESS, reserve=RESERVE, head_timeout=60.0)
    held: list[socket.socket] = []
    with serving(server) as port:
        try:
            one = [slow(port, "127.0.0.2") for _ in range(3 * PER_ADDRESS)]
            held += one
            closed = [closed_by_server(s, within=0.5) for s in one]
            assert closed.count(False) == PER_ADDRESS  # the rest were closed as they came
            for k in range(3, 3 + 2 * LIMIT // PER_ADDRESS):  # more addresses: the shared limit
                held += [slow(port, f"127.0.0.{k}") for _ in range(PER_ADDRESS)]
            open_now = [s for s in held if not closed_by_server(s, within=0.2)]
            assert len(open_now) <= LIMIT
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session", timeout=10) as page:
                assert page.status == 200  # the Pi's own page, through it all
        finally:
            for sock in held:
                sock.close()


def test_each_connection_is_keyed_once(table: tuple[Any, Any],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The address a connection counts against is worked out when it is accepted, not again for
    every open connection each time another comes."""
    _, app = table
    keyed: list[str] = []
    key = companion.server.client_key
    monkeypatch.setattr(companion.server, "client_key", lambda a: keyed.append(a) or key(a))
    server = guarded_server(app, host="127.0.0.1", port=0, threads=4, head_timeout=60.0)
    held: list[socket.socket] = []
    with serving(server) as port:
        try:
            held += [slow(port, "127.0.0.2") for _ in range(PER_ADDRESS)]
            # the Pi's request is accepted after them (in turn), and is not keyed
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session", timeout=10) as page:
                assert page.status == 200
            assert keyed == ["127.0.0.2"] * PER_ADDRESS
        finally:
            for sock in held:
                sock.close()


def test_a_request_head_must_come_in_time(table: tuple[Any, Any]) -> None:
    _, app = table
    server = guarded_server(app, host="127.0.0.1", port=0, threads=4, head_timeout=1.0,
                            cleanup_interval=1)
    with serving(server) as port, slow(port, "127.0.0.2") as sock:
        # one more header line every 0.2 s: never idle, never done
        lines = (f"X-Slow-{k}: 1\r\n".encode() for k in range(60))
        assert cut_while_trickling(sock, lines), "a head sent a line at a time was never cut off"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session", timeout=10) as page:
            assert page.status == 200


def test_a_request_body_must_come_in_time(table: tuple[Any, Any]) -> None:
    """A body trickled a byte at a time after a whole head is never idle: it is cut once it has
    taken longer than its time (and a second per ``body_rate`` bytes); a body sent at once is
    answered."""
    _, app = table
    server = guarded_server(app, host="127.0.0.1", port=0, threads=4, head_timeout=60.0,
                            body_timeout=1.0, body_rate=1024, cleanup_interval=1)
    with serving(server) as port:
        head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 4000\r\n\r\n")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(head)
            # one byte every 0.2 s: never idle, 4000 bytes would take 13 min
            assert cut_while_trickling(sock, [b" "] * 60), "a body sent a byte at a time was never cut off"
        body = b'{"players": ["Ann", "Bob"]}'
        with socket.create_connection(("127.0.0.1", port), timeout=10) as whole:
            whole.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
            answer = b""
            while part := whole.recv(65536):
                answer += part
        assert answer.startswith(b"HTTP/1.1 "), answer[:100]  # answered (403 without the CSRF token)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session", timeout=10) as page:
            assert page.status == 200


def test_a_body_larger_than_the_api_takes_is_refused_unread(table: tuple[Any, Any]) -> None:
    config, app = table
    sent, chunk = 0, b"x" * (1024 * 1024)
    with serving(make_server(config, app)) as port, \
            socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Transfer-Encoding: chunked\r\nContent-Type: application/octet-stream\r\n\r\n")
        try:
            for _ in range(200):  # up to 200 MB, chunked: no length to refuse it by
                sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                sent += len(chunk)
        except OSError:
            pass
        answer = read_until_quiet(sock)
    assert sent < 60 * 1024 * 1024, f"the server read {sent >> 20} MB before refusing"
    assert answer == b"" or answer.startswith(b"HTTP/1.1 413"), answer[:100]


class FullCardFile(io.BytesIO):
    """A file in TMPDIR on a full SD card: made, but nothing can be written to it."""

    def write(self, data: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def read_only_card() -> Any:
    raise OSError(errno.EROFS, os.strerror(errno.EROFS))


@pytest.mark.parametrize(("newfile", "status", "cause"), [
    (FullCardFile, 507, "full"),
    (read_only_card, 503, "read-only"),
])
def test_a_body_waitress_cannot_keep_in_tmpdir_is_answered_not_cut(
        table: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch, newfile: Any, status: int,
        cause: str) -> None:
    """A body over waitress's 512 KB in-memory buffer goes to a file in TMPDIR while it comes;
    on a full or read-only card that write failed and waitress cut the connection (the phone saw
    "connection reset"). Now it is answered as the page's storage refusals are."""
    import waitress.buffers

    monkeypatch.setattr(waitress.buffers.TempfileBasedBuffer, "newfile", lambda self: newfile())
    config, app = table
    body = b"x" * (2 * 1024 * 1024)
    with serving(make_server(config, app)) as port, \
            socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n" % len(body))
        with contextlib.suppress(OSError):
            sock.sendall(body)
        answer = read_until_quiet(sock)
        assert answer.startswith(b"HTTP/1.1 %d" % status), answer[:200]
        said = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert said["cause"] == cause and "nothing was recorded" in said["error"], said
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session", timeout=10) as page:
            assert page.status == 200  # the server goes on serving


def test_waitress_refusals_are_json(table: tuple[Any, Any]) -> None:
    config, app = table
    with serving(make_server(config, app)) as port, \
            socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Length: 999999999\r\n\r\n")
        answer = read_until_quiet(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413") and b"application/json" in head, head
    assert json.loads(body)["error"].startswith("the request is too large"), body
