"""waitress, guarded against slow clients: ``crib serve``'s HTTP server.

waitress alone closes a connection only when it has been idle for ``channel_timeout``; a client
that sends one header line every few seconds is never idle, and 500 of them fill every
connection, the Pi's own page's too. So :func:`guarded_server` adds

* **a time to send a request head** (``head_timeout``): a connection that has begun a request
  and not finished its head in that time is closed;
* **a time to send its body** (``body_timeout``, and one more second for every ``body_rate``
  bytes come): a body trickled in a byte at a time is never idle (waitress's
  ``channel_timeout`` closes one that stops), so a connection whose body is still not whole
  after that time is closed; a 12 MB photo may take 30 s plus 12 MB at 16 KB/s;
* **connections per address** (``per_address``): more from one address are closed as soon as
  they are accepted (an IPv6 /64 counts as one address);
* **room kept for this computer** (``reserve``): addresses other than ``127.0.0.1`` and ``::1``
  (and a ``--behind-proxy`` proxy) share ``limit`` connections; the Pi's own page and scripts
  have ``reserve`` more.

A request body is read up to ``max_body`` bytes (waitress answers 413 beyond it), so no body
larger than the API accepts is held in memory or in TMPDIR. waitress keeps a body over 512 KB in
a file in TMPDIR while it comes; when that file cannot be written (the SD card full or
read-only) the request is answered 507 or 503 as the page's own storage refusals are, not a
connection cut short. waitress's own refusals (400, 413, 431, 501, 507) are JSON
(``{"error": ...}``), as every answer of the API is.

>>> server = guarded_server(lambda e, s: [], host="127.0.0.1", port=0, threads=2)
>>> server.per_address, server.head_timeout, server.adj.max_request_body_size > 12_000_000
(32, 10.0, True)
>>> server.body_timeout, server.body_rate
(30.0, 16384)
>>> server.close()
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher
from waitress.utilities import Error

from web.security import client_key

log = logging.getLogger("web.server")

HEAD_TIMEOUT_S = 10.0
"""Seconds a client has to send a request's head (its first line and headers), once begun."""
PER_ADDRESS = 32
"""Connections one address may hold open (a phone's browser keeps about six, plus its stream)."""
RESERVE = 32
"""Connections kept for this computer beyond the limit every other address shares."""
BODY_TIMEOUT_S = 30.0
"""Seconds a client has to send a request's body once its head is whole, ..."""
BODY_RATE = 16 * 1024
"""... and one second more for every this many bytes of it that came (16 KB/s: a slow phone)."""
MAX_BODY = 12 * 1024 * 1024 + 64 * 1024
"""The largest request body read: a 12 MB photo with its form's headers."""
OWN = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})


def body_overdue(elapsed: float, received: int, timeout: float = BODY_TIMEOUT_S,
                 rate: int = BODY_RATE) -> bool:
    """Has a body begun ``elapsed`` seconds ago, ``received`` bytes of it come, taken too long?

    >>> body_overdue(31.0, 100), body_overdue(31.0, 1_000_000), body_overdue(29.0, 0)
    (True, False, False)
    """
    return elapsed > timeout + received / rate


class StorageRefused(Error):  # type: ignore[misc]
    """A request body waitress could not keep in TMPDIR: 507 when the card is full, else 503."""

    def __init__(self, cause: OSError) -> None:
        full = cause.errno in (errno.ENOSPC, errno.EDQUOT)
        self.code, self.reason = (507, "Insufficient Storage") if full else (503, "Service Unavailable")
        self.cause = "full" if full else "read-only" if cause.errno == errno.EROFS else "io"
        super().__init__("the SD card is full: nothing was recorded" if full else
                         "the SD card is read-only: nothing was recorded" if self.cause == "read-only"
                         else "the SD card could not be written: nothing was recorded")


def error_json(error: Any) -> tuple[str, list[tuple[str, str]], bytes]:
    """waitress's refusal ``error`` as the API answers: its status, and ``{"error": words}``.

    >>> from waitress.utilities import RequestEntityTooLarge
    >>> status, headers, body = error_json(RequestEntityTooLarge("exceeds max_body of 9"))
    >>> status, body
    ('413 Request Entity Too Large', b'{"error": "the request is too large (exceeds max_body of 9)"}')
    """
    words = {400: "the request is malformed", 413: "the request is too large",
             431: "the request's headers are too large", 501: "that transfer encoding is not supported"}
    if isinstance(error, StorageRefused):
        body: dict[str, str] = {"error": str(error.body), "cause": error.cause}
    else:
        said = words.get(error.code, error.reason.lower())
        body = {"error": f"{said} ({error.body})" if error.body else said}
    return (f"{error.code} {error.reason}", [("Content-Type", "application/json")],
            json.dumps(body).encode())


class JsonErrorTask(ErrorTask):  # type: ignore[misc]
    """waitress's error answer, in JSON (:func:`error_json`)."""

    def execute(self) -> None:
        status, headers, body = error_json(self.request.error)
        self.status = status
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class GuardedParser(HTTPRequestParser):  # type: ignore[misc]
    """waitress's request parser, refusing with :class:`StorageRefused` a body its buffer could
    not write to TMPDIR (waitress would let the error cut the connection)."""

    def received(self, data: bytes) -> int:
        try:
            return int(super().received(data))
        except OSError as cause:
            log.warning("a request body could not be kept in TMPDIR: %s", cause.strerror)
            self.error, self.completed = StorageRefused(cause), True
            if self.body_rcv is not None:
                with contextlib.suppress(OSError):
                    self.body_rcv.getbuf().close()
            return len(data)


class GuardedChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's channel, noting the address it is counted against (``client``: an IPv6 /64 as
    one, :func:`web.security.client_key`; None for this computer), when each request's first
    bytes came, when its head was whole and how many bytes came since."""

    parser_class = GuardedParser
    error_task_class = JsonErrorTask
    client: str | None = None
    head_started: float | None = None
    body_started: float | None = None
    body_received = 0

    def received(self, data: bytes) -> bool:
        now = time.monotonic()
        if self.request is None and data:
            self.head_started = now
            self.body_started = None
        if self.body_started is not None:
            self.body_received += len(data)
        done = bool(super().received(data))
        request = self.request
        if request is None:  # whole (or none begun): no body is being waited for
            self.body_started = None
        elif request.headers_finished and self.body_started is None:
            self.body_started, self.body_received = now, 0
        return done


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server with the limits of the module text."""

    channel_class = GuardedChannel
    head_timeout = HEAD_TIMEOUT_S
    body_timeout = BODY_TIMEOUT_S
    body_rate = BODY_RATE
    per_address = PER_ADDRESS
    shared_limit = 500
    own: frozenset[str] = OWN

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
        except OSError:
            return
        address = str(addr[0]).split("%", 1)[0] if isinstance(addr, tuple) else ""
        key = None if address in self.own else client_key(address)
        if key is not None:
            others = [c.client for c in self._map.values()
                      if isinstance(c, GuardedChannel) and c.client is not None]
            mine = others.count(key)
            if mine >= self.per_address or len(others) >= self.shared_limit:
                log.warning("refused a connection from %s: %s", address,
                            "too many from that address" if mine >= self.per_address
                            else "too many connections")
                conn.close()
                return
        channel = self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)
        channel.client = key

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        clock = time.monotonic()
        late = clock - self.head_timeout
        for channel in list(self.active_channels.values()):
            request = getattr(channel, "request", None)
            started = getattr(channel, "head_started", None)
            if (request is not None and not request.headers_finished and started is not None
                    and started < late):
                channel.will_close = True
            body = getattr(channel, "body_started", None)
            if (request is not None and request.headers_finished and body is not None
                    and body_overdue(clock - body, channel.body_received, self.body_timeout,
                                     self.body_rate)):
                log.warning("closed a connection from %s: its request body came too slowly",
                            channel.addr[0] if channel.addr else "?")
                channel.will_close = True


def guarded_server(app: Callable[..., Iterable[bytes]], *, host: str, port: int, threads: int,
                   limit: int = 500, per_address: int = PER_ADDRESS, reserve: int = RESERVE,
                   head_timeout: float = HEAD_TIMEOUT_S, body_timeout: float = BODY_TIMEOUT_S,
                   body_rate: int = BODY_RATE, max_body: int = MAX_BODY,
                   trusted: Iterable[str] = (), **adjust: Any) -> Any:
    """A waitress server for ``app`` on ``host:port`` (not yet running: ``server.run()``),
    as :func:`waitress.create_server` makes it but with :class:`GuardedServer`. ``adjust``
    goes to waitress (``channel_timeout``, ``cleanup_interval``, ``ident`` ...)."""
    adj = Adjustments(host=host, port=port, threads=threads, connection_limit=limit + reserve,
                      max_request_body_size=max_body, asyncore_use_poll=True, **adjust)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    socket_map: dict[int, Any] = {}
    own = OWN | frozenset(trusted)
    servers = []
    for sockinfo in adj.listen:
        server = GuardedServer(app, socket_map, True, None, dispatcher=dispatcher, adj=adj,
                               sockinfo=sockinfo)
        server.head_timeout, server.per_address = head_timeout, per_address
        server.body_timeout, server.body_rate = body_timeout, body_rate
        server.shared_limit, server.own = limit, own
        servers.append(server)
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return MultiSocketServer(socket_map, adj, listening, dispatcher)
