"""Who sent a request, when the table runs behind a reverse proxy on the Pi (nginx, Caddy).

A proxy on the Pi forwards every phone's request from ``127.0.0.1``, which the table would
take for the Pi itself (no code needed). So

* a request that carries a forwarding header (:data:`FORWARDING`) is never the Pi's own, even
  from a loopback address (:func:`forwarded`); and
* with ``crib serve --behind-proxy ADDR`` (the ``TRUSTED_PROXY`` setting) a request from ``ADDR``
  is taken as from the address the proxy names: the last one in ``X-Forwarded-For`` (the one
  the proxy added), else ``X-Real-IP`` (:class:`TrustedProxy`). A forwarding header from any
  other address is not believed.

>>> seen = {}
>>> app = TrustedProxy(lambda environ, start: seen.update(environ) or [], "127.0.0.1")
>>> _ = app({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 192.168.1.30"}, None)
>>> seen["REMOTE_ADDR"], "HTTP_X_FORWARDED_FOR" in seen, seen["crib.proxy"]
('192.168.1.30', False, '127.0.0.1')
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable, Mapping
from typing import Any

FORWARDING = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")
"""The WSGI names of the headers a proxy adds to say whom it forwards."""


def forwarded(environ: Mapping[str, Any]) -> bool:
    """Does the request carry a forwarding header (so it passed through a proxy)?"""
    return any(environ.get(name) for name in FORWARDING)


def check_proxy(address: str) -> str:
    """A ``--behind-proxy`` address, as the table compares it.

    >>> check_proxy("127.0.0.1"), check_proxy("::1")
    ('127.0.0.1', '::1')
    >>> check_proxy("nginx")
    Traceback (most recent call last):
    ...
    ValueError: --behind-proxy takes the proxy's address (like 127.0.0.1), not 'nginx'
    """
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        raise ValueError(f"--behind-proxy takes the proxy's address (like 127.0.0.1), "
                         f"not {address!r}") from None


def _client(environ: Mapping[str, Any]) -> str | None:
    chain = [a.strip() for a in str(environ.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    for name in (chain[-1] if chain else "", str(environ.get("HTTP_X_REAL_IP", "")).strip()):
        try:
            return str(ipaddress.ip_address(name))
        except ValueError:
            continue
    return None


class TrustedProxy:
    """WSGI middleware: a request from ``proxy`` is taken as from the client it forwards
    (``REMOTE_ADDR`` replaced, the forwarding headers removed, ``crib.proxy`` set). A request
    from the proxy naming no client keeps its forwarding headers: it is not the Pi's own."""

    def __init__(self, app: Callable[..., Iterable[bytes]], proxy: str) -> None:
        self.app, self.proxy = app, check_proxy(proxy)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        remote = str(environ.get("REMOTE_ADDR", "")).split("%", 1)[0]
        try:
            from_proxy = str(ipaddress.ip_address(remote)) == self.proxy
        except ValueError:
            from_proxy = False
        client = _client(environ) if from_proxy else None
        if client is not None:
            environ["REMOTE_ADDR"] = client
            environ["crib.proxy"] = self.proxy
            for name in FORWARDING:
                environ.pop(name, None)
        return self.app(environ, start_response)
