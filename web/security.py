"""Safety on a shared network: the Host, the table code, the CSRF token, the table PIN and the
web settings file.

Reading is open to anyone on the network whose page names this table in its ``Host``
(:mod:`web.hosts`; any other is 421). Changing anything needs

* the CSRF token of the page's session (header ``X-CSRF-Token`` or form field ``csrf_token``),
  so another site cannot make a phone's browser post to the table;
* the **table code**, once per device: a session admitted with it (``POST /api/code``, a
  ``?code=`` link, the QR code; :mod:`web.tablecode`) or the header ``X-Table-Code``. Requests
  from the companion's own computer (a loopback address) need no code; and
* when a table PIN is set, a session unlocked with it (``POST /api/unlock``, which admits the
  device too) or the header ``X-Table-Pin``. Wrong PINs and codes are throttled per address.

The table code is made at first start and kept in ``web.json`` in the data folder, with the
PIN as a salted PBKDF2 hash and the key that signs the session cookies.

>>> import tempfile, pathlib
>>> s = WebSettings(pathlib.Path(tempfile.mkdtemp()) / "web.json")
>>> s.pin_state
'unset'
>>> s.set_pin("4321"); s.pin_state, s.check_pin("4321"), s.check_pin("1234")
('set', True, False)
>>> s.set_pin(None); s.pin_state
'none'
>>> s.check_code(s.table_code.lower()), s.check_code("AAAAAA")
(True, False)
>>> WebSettings(s.path).table_code == s.table_code   # kept for later starts
True
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Any

PIN_ITERATIONS = 100_000
MAX_PIN_FAILURES = 5
FAILURE_WINDOW_S = 60.0

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""The table code's letters: capitals and digits that cannot be mistaken for one another when
read across a table (no 0/O, 1/I/L)."""
CODE_LENGTH = 6


class WebSettings:
    """The page's own settings file: session key and table PIN (``unset``, ``none`` or ``set``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        data: dict[str, Any] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
        if not isinstance(data, dict):
            data = {}
        self._data = data
        made = False
        if not isinstance(self._data.get("secret_key"), str):
            self._data["secret_key"] = secrets.token_hex(32)
            made = True
        if normal_code(self._data.get("table_code")) is None:
            self._data["table_code"] = new_table_code()
            made = True
        if made:
            self._save()

    @property
    def secret_key(self) -> str:
        return str(self._data["secret_key"])

    @property
    def table_code(self) -> str:
        """The table code, like a party game's room code: six of :data:`CODE_ALPHABET`."""
        return str(self._data["table_code"])

    @property
    def code_stamp(self) -> str:
        """What a session admitted with the table code keeps: a keyed digest of the code (never
        the code itself), so a new code turns every device away until it has the new one."""
        digest = hmac.new(self.secret_key.encode(), self.table_code.encode(), hashlib.sha256)
        return digest.hexdigest()[:32]

    def check_code(self, code: object) -> bool:
        """Is ``code`` this table's code (any case; spaces and hyphens ignored)?"""
        given = normal_code(code)
        return given is not None and hmac.compare_digest(given, self.table_code)

    def new_code(self) -> str:
        """Make a new table code (``crib serve --new-code``): devices admitted with the old
        one need the new one."""
        with self._lock:
            self._data["table_code"] = new_table_code()
            self._save()
        return self.table_code

    @property
    def pin_state(self) -> str:
        """``'unset'`` before anyone decided (first start), ``'none'`` or ``'set'``."""
        pin = self._data.get("pin", "unset")
        if pin == "unset":
            return "unset"
        return "set" if isinstance(pin, dict) else "none"

    @property
    def pin_version(self) -> int:
        """Grows each time the PIN changes, so sessions unlocked with an old PIN lock again."""
        return int(self._data.get("pin_version", 0))

    def set_pin(self, pin: str | None) -> None:
        """Set the PIN (4 to 12 digits) or, with ``None``, decide to have no PIN."""
        with self._lock:
            if pin is None:
                self._data["pin"] = None
            else:
                check_pin_format(pin)
                salt = secrets.token_bytes(16)
                digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, PIN_ITERATIONS)
                self._data["pin"] = {"salt": salt.hex(), "hash": digest.hex()}
            self._data["pin_version"] = self.pin_version + 1
            self._save()

    def check_pin(self, pin: object) -> bool:
        stored = self._data.get("pin")
        if not isinstance(stored, dict) or not isinstance(pin, str) or len(pin) > 64:
            return False
        digest = hashlib.pbkdf2_hmac(
            "sha256", pin.encode(), bytes.fromhex(stored["salt"]), PIN_ITERATIONS
        )
        return hmac.compare_digest(digest.hex(), stored["hash"])

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self._data, indent=1), encoding="utf-8")
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)


def new_table_code() -> str:
    """A fresh table code: ``CODE_LENGTH`` letters of :data:`CODE_ALPHABET` (about 30 bits).

    >>> code = new_table_code()
    >>> len(code), set(code) <= set(CODE_ALPHABET)
    (6, True)
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: object) -> str | None:
    """A table code as typed, in its one spelling (capitals, no spaces or hyphens), or None
    when it cannot be a table code.

    >>> normal_code(" k7m-x3p "), normal_code("K7MX3"), normal_code("K7MX3O"), normal_code(7)
    ('K7MX3P', None, None, None)
    """
    if not isinstance(text, str) or len(text) > 32:
        return None
    code = text.replace(" ", "").replace("-", "").upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        return None
    return code


def is_loopback(address: str | None) -> bool:
    """Is the request from the companion's own computer? (``REMOTE_ADDR``; IPv6, an IPv4 mapped
    in IPv6, and a missing address are handled: missing is not trusted.)

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("::ffff:127.0.0.1")
    (True, True, True)
    >>> is_loopback("192.168.1.20"), is_loopback(None), is_loopback("not an address")
    (False, False, False)
    """
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def check_pin_format(pin: object) -> str:
    """A PIN is 4 to 12 digits.

    >>> check_pin_format("12a4")
    Traceback (most recent call last):
    ...
    ValueError: a table PIN is 4 to 12 digits
    """
    if not isinstance(pin, str) or not pin.isdigit() or not 4 <= len(pin) <= 12 or not pin.isascii():
        raise ValueError("a table PIN is 4 to 12 digits")
    return pin


class Throttle:
    """Counts PIN attempts per address; more than ``MAX_PIN_FAILURES`` a minute are refused.

    An attempt is counted (:meth:`reserve`) before its PIN is compared, in one step with the
    check that the address may still try, so a burst of guesses sent at once is held to the
    limit like guesses sent one by one; a right PIN takes its attempt back (:meth:`forgive`).

    >>> t = Throttle(limit=2, window=60.0)
    >>> t.reserve("a", now=0.0), t.reserve("a", now=1.0), t.reserve("a", now=2.0)
    (0.0, 1.0, None)
    >>> t.blocked("a", now=2.0), t.blocked("a", now=70.0)
    (True, False)
    >>> t.forgive("a", 1.0); t.blocked("a", now=2.0)
    False
    """

    def __init__(self, limit: int = MAX_PIN_FAILURES, window: float = FAILURE_WINDOW_S) -> None:
        self.limit, self.window = limit, window
        self._fails: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, who: str, now: float) -> list[float]:
        times = [t for t in self._fails.get(who, []) if now - t < self.window]
        if times:
            self._fails[who] = times
        else:
            self._fails.pop(who, None)
        return times

    def blocked(self, who: str, now: float | None = None) -> bool:
        with self._lock:
            return len(self._recent(who, time.monotonic() if now is None else now)) >= self.limit

    def reserve(self, who: str, now: float | None = None) -> float | None:
        """Count an attempt by ``who`` before its PIN is compared: the attempt's time stamp, or
        ``None`` (nothing counted) when ``who`` has had its ``limit`` this ``window``."""
        with self._lock:
            now = time.monotonic() if now is None else now
            times = self._recent(who, now)
            if len(times) >= self.limit:
                return None
            times.append(now)
            self._fails[who] = times
            return now

    def forgive(self, who: str, stamp: float) -> None:
        """Take back the attempt ``reserve`` stamped ``stamp``: its PIN was right."""
        with self._lock:
            times = self._fails.get(who, [])
            if stamp in times:
                times.remove(stamp)


def new_csrf_token() -> str:
    return secrets.token_urlsafe(24)


def same_token(given: object, expected: object) -> bool:
    """Constant-time comparison of a sent CSRF token with the session's."""
    return (
        isinstance(given, str)
        and isinstance(expected, str)
        and bool(expected)
        and hmac.compare_digest(given.encode(), expected.encode())
    )
