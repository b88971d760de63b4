"""Safety on a shared network: the CSRF token, the table PIN and the web settings file.

Reading is open to anyone on the network. Changing anything needs

* the CSRF token of the page's session (header ``X-CSRF-Token`` or form field ``csrf_token``),
  so another site cannot make a phone's browser post to the table; and
* when a table PIN is set, a session unlocked with it (``POST /api/unlock``) or the header
  ``X-Table-Pin``. Wrong PINs are throttled per address.

The PIN is stored as a salted PBKDF2 hash in ``web.json`` in the data folder, next to the key that
signs the session cookies.

>>> import tempfile, pathlib
>>> s = WebSettings(pathlib.Path(tempfile.mkdtemp()) / "web.json")
>>> s.pin_state
'unset'
>>> s.set_pin("4321"); s.pin_state, s.check_pin("4321"), s.check_pin("1234")
('set', True, False)
>>> s.set_pin(None); s.pin_state
'none'
"""

from __future__ import annotations

import hashlib
import hmac
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
        if not isinstance(self._data.get("secret_key"), str):
            self._data["secret_key"] = secrets.token_hex(32)
            self._save()

    @property
    def secret_key(self) -> str:
        return str(self._data["secret_key"])

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
