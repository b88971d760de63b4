"""waitress, guarded against slow clients: ``crib serve``'s HTTP server.

waitress alone closes a connection only when it has been idle for ``channel_timeout``; a client
that sends one header line every few seconds is never idle, and 500 of them fill every
connection, the Pi's own page's too. So :func:`guarded_server` adds

* **a time to send a request head** (``head_timeout``): a connection that has begun a request
  and not finished its head in that time is closed;
* **connections per address** (``per_address``): more from one address are closed as soon as
  they are accepted (an IPv6 /64 counts as one address);
* **room kept for this computer** (``reserve``): addresses other than ``127.0.0.1`` and ``::1``
  (and a ``--behind-proxy`` proxy) share ``limit`` connections; the Pi's own page and scripts
  have ``reserve`` more.

A request body is read up to ``max_body`` bytes (waitress answers 413 beyond it), so no body
larger than the API accepts is held in memory or in TMPDIR.

>>> server = guarded_server(lambda e, s: [], host="127.0.0.1", port=0, threads=2)
>>> server.per_address, server.head_timeout, server.adj.max_request_body_size > 12_000_000
(32, 10.0, True)
>>> server.close()
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

log = logging.getLogger("web.server")

HEAD_TIMEOUT_S = 10.0
"""Seconds a client has to send a request's head (its first line and headers), once begun."""
PER_ADDRESS = 32
"""Connections one address may hold open (a phone's browser keeps about six, plus its stream)."""
RESERVE = 32
"""Connections kept for this computer beyond the limit every other address shares."""
MAX_BODY = 12 * 1024 * 1024 + 64 * 1024
"""The largest request body read: a 12 MB photo with its form's headers."""
OWN = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})


def client_key(address: str) -> str:
    """The address a connection is counted against (an IPv6 /64 as one)."""
    from web.security import client_key as key

    return key(address)


class GuardedChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's channel, noting when each request's first bytes came."""

    head_started: float | None = None

    def received(self, data: bytes) -> bool:
        if self.request is None and data:
            self.head_started = time.monotonic()
        return bool(super().received(data))


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server with the limits of the module text."""

    channel_class = GuardedChannel
    head_timeout = HEAD_TIMEOUT_S
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
        if address not in self.own:
            key = client_key(address)
            others = [c for c in self._map.values() if isinstance(c, GuardedChannel)
                      and str(c.addr[0]).split("%", 1)[0] not in self.own]
            mine = sum(1 for c in others if client_key(str(c.addr[0]).split("%", 1)[0]) == key)
            if mine >= self.per_address or len(others) >= self.shared_limit:
                log.warning("refused a connection from %s: %s", address,
                            "too many from that address" if mine >= self.per_address
                            else "too many connections")
                conn.close()
                return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        late = time.monotonic() - self.head_timeout
        for channel in list(self.active_channels.values()):
            request = getattr(channel, "request", None)
            started = getattr(channel, "head_started", None)
            if (request is not None and not request.headers_finished and started is not None
                    and started < late):
                channel.will_close = True


def guarded_server(app: Callable[..., Iterable[bytes]], *, host: str, port: int, threads: int,
                   limit: int = 500, per_address: int = PER_ADDRESS, reserve: int = RESERVE,
                   head_timeout: float = HEAD_TIMEOUT_S, max_body: int = MAX_BODY,
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
        server.shared_limit, server.own = limit, own
        servers.append(server)
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return MultiSocketServer(socket_map, adj, listening, dispatcher)
