"""The names this table answers to: a request whose ``Host`` is another name is refused (421).

A web page on any phone on the network could otherwise drive the table by DNS rebinding: its
own name made to point at the companion's address, so the phone's browser sends the table the
page's requests with ``Host: evil.example``. The table answers only to

* ``localhost``, ``127.0.0.1`` and ``::1``;
* the address it listens on, and the machine's host name and ``NAME.local``;
* when it listens on every address (``0.0.0.0`` or ``::``), each address of this machine's
  network interfaces, looked up again (at most every few seconds) when a request names an
  address it does not know, so a Pi that joins the Wi-Fi after it started is still reached; and
* the names given with ``crib serve --allow-host NAME``.

A port in ``Host`` does not matter. A request with no ``Host`` (HTTP/1.0) names nothing and is
let through: a browser always sends one.

>>> check = HostCheck("127.0.0.1", ["crib.example"], hostname="pi", addresses=lambda: set())
>>> [check.allows(h) for h in ("localhost:8121", "[::1]:8121", "PI.local", "crib.example.")]
[True, True, True, True]
>>> check.allows("evil.example"), check.allows("192.168.1.20:8121")
(False, False)
"""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
EVERY_ADDRESS = frozenset({"0.0.0.0", "::", ""})
REFRESH_S = 5.0
"""Seconds between two looks at the network interfaces for an unknown address."""

_NAME = re.compile(r"^[a-z0-9_]([a-z0-9_.-]{0,252})$|^[0-9a-f:.]{2,45}$")


def host_name(header: str) -> str:
    """The name in a ``Host`` header: lower case, without the port, brackets or a final dot.

    >>> host_name("Pi.Local.:8121"), host_name("[::1]:8121"), host_name("192.168.1.20")
    ('pi.local', '::1', '192.168.1.20')
    """
    name = header.strip().lower()
    if name.startswith("["):
        name = name[1:].split("]", 1)[0]
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    return name.rstrip(".")


def host_port(header: str) -> str:
    """The port in a ``Host`` header, or ``""``.

    >>> host_port("pi.local:8121"), host_port("[::1]:80"), host_port("pi.local"), host_port("::1")
    ('8121', '80', '', '')
    """
    rest = header.rpartition("]")[2] if header.startswith("[") else header
    if rest.count(":") != 1:
        return ""
    port = rest.rpartition(":")[2]
    return port if port.isdigit() else ""


def check_host_name(name: str) -> str:
    """A name for ``--allow-host``: a host name or an address (a port is dropped).

    >>> check_host_name("Crib.Example:8121"), check_host_name("[fe80::1]")
    ('crib.example', 'fe80::1')
    >>> check_host_name("evil/..")
    Traceback (most recent call last):
    ...
    ValueError: --allow-host takes a host name or an address, not 'evil/..'
    """
    normal = host_name(name)
    if not _NAME.match(normal) or (":" in normal and not _is_address(normal)):
        raise ValueError(f"--allow-host takes a host name or an address, not {name!r}")
    return normal


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def network_address() -> str | None:
    """The address this machine reaches the local network from (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def network_address6(addresses: Callable[[], set[str]] | None = None) -> str | None:
    """This machine's IPv6 address on the network, or None: a global one first, else a
    unique-local one (``fd00::/8``); never loopback or link-local (a phone would need the zone).
    ``addresses`` stands in for :func:`interface_addresses` (the doctest).

    >>> network_address6(lambda: {"::1", "fe80::1", "fd00::2", "192.168.1.20"})
    'fd00::2'
    >>> network_address6(lambda: {"fd00::2", "2a01:4f8::7"}), network_address6(lambda: {"::1"})
    ('2a01:4f8::7', None)
    """
    found = []
    for text in (addresses or interface_addresses)():
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.version == 6 and not (address.is_loopback or address.is_link_local
                                         or address.is_multicast or address.is_unspecified):
            found.append((not address.is_global, address))
    return str(min(found)[1]) if found else None


def lan_address(listen: str) -> str | None:
    """The address phones reach a table listening on every address by: on ``::`` an IPv6 one
    (:func:`network_address6`: waitress listens on IPv6 alone there, so an IPv4 address
    refuses), else the IPv4 network address (:func:`network_address`)."""
    return network_address6() if host_name(listen) == "::" else network_address()


def url_host(address: str) -> str:
    """An address as a URL names it: an IPv6 one in brackets.

    >>> url_host("::1"), url_host("192.168.1.20"), url_host("pi.local")
    ('[::1]', '192.168.1.20', 'pi.local')
    """
    return f"[{address}]" if ":" in address else address


def phone_name(listen: str) -> str | None:
    """The name a phone on the network opens the table by, or None when it listens on this
    computer only: the listening address, else (every address) the network address
    (:func:`lan_address`: IPv6 on ``::``), else ``NAME.local``.

    >>> phone_name("127.0.0.1"), phone_name("::1"), phone_name("192.168.1.20")
    (None, None, '192.168.1.20')
    """
    listen = host_name(listen)
    if listen in LOOPBACK_NAMES or listen.startswith("127."):
        return None
    if listen not in EVERY_ADDRESS:
        return listen
    return lan_address(listen) or f"{socket.gethostname().lower()}.local"


def interface_addresses() -> set[str]:
    """This machine's own addresses, IPv4 and IPv6, as Linux lists them (``/proc/net``), with
    what the host name resolves to and the address used to reach the network as a fallback."""
    found: set[str] = set()
    try:  # IPv4: the kernel's table of local addresses ("/32 host LOCAL")
        last = ""
        for line in Path("/proc/net/fib_trie").read_text().splitlines():
            text = line.strip()
            if text.startswith("|--"):
                last = text[3:].strip()
            elif text.endswith("host LOCAL") and last:
                found.add(last)
    except OSError:
        pass
    try:  # IPv6: one address a line, 32 hex digits first
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            digits = line.split()[0]
            found.add(str(ipaddress.IPv6Address(int(digits, 16))))
    except (OSError, ValueError, IndexError):
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]).split("%", 1)[0])
    except OSError:
        pass
    reach = network_address()
    if reach:
        found.add(reach)
    return found


class HostCheck:
    """Does a ``Host`` header name this table? See the module text for the names it allows.

    ``hostname`` and ``addresses`` stand in for the machine's own (tests, the doctest).
    """

    def __init__(
        self,
        listen: str,
        extra: Iterable[str] = (),
        *,
        hostname: str | None = None,
        addresses: Callable[[], set[str]] = interface_addresses,
        refresh_s: float = REFRESH_S,
    ) -> None:
        self.listen = host_name(listen)
        self.everywhere = self.listen in EVERY_ADDRESS
        self._fixed = set(LOOPBACK_NAMES) | {check_host_name(n) for n in extra}
        if not self.everywhere:
            self._fixed.add(self.listen)
        self._hostname = hostname
        self._addresses = addresses
        self._refresh_s = refresh_s
        self._lock = threading.Lock()
        self._known: frozenset[str] = frozenset()
        self._looked = -float("inf")
        self._look()

    def _look(self) -> None:
        names = set(self._fixed)
        own = (self._hostname if self._hostname is not None else socket.gethostname()).lower()
        if own:
            names |= {own, f"{own}.local"}
        if self.everywhere:
            names |= {a.lower() for a in self._addresses()}
        self._known = frozenset(names)
        self._looked = time.monotonic()

    @property
    def names(self) -> frozenset[str]:
        """Every name and address allowed now."""
        return self._known

    def allows(self, header: str | None) -> bool:
        if not header:
            return True
        name = host_name(header)
        if name in self._known:
            return True
        with self._lock:  # a new address (or host name) since the last look?
            if time.monotonic() - self._looked >= self._refresh_s:
                self._look()
            return name in self._known
