"""Safety on a shared network: the Host, the table code, the CSRF token, the table PIN and the
web settings file.

Reading is open to anyone on the network whose page names this table in its ``Host``
(:mod:`web.hosts`; any other is 421). Changing anything needs

* the CSRF token of the page's session (header ``X-CSRF-Token`` or form field ``csrf_token``),
  so another site cannot make a phone's browser post to the table;
* the **table code**, once per device: a session admitted with it (``POST /api/code``, a
  ``?code=`` link, the QR code; :mod:`web.tablecode`) or the header ``X-Table-Code``. Requests
  from the companion's own computer (a loopback address, no forwarding headers) need no code; and
* when a table PIN is set, a session unlocked with it (``POST /api/unlock``, open only to a device
  the code admitted: the PIN is a second key, never a way in) or the header ``X-Table-Pin``.

Wrong codes and wrong PINs are throttled (:class:`Throttle`): 5 a minute per address (an IPv6
/64 is one address) and, for every address together, a bucket that more addresses cannot
enlarge; the counts are kept in ``web-tries.json`` beside ``web.json``, so a restart keeps them.

The table code is made at first start and kept in ``web.json`` in the data folder, with the
PIN as a salted PBKDF2 hash and the key that signs the session cookies. A damaged ``web.json``
stops the start (:class:`SettingsDamaged`): its PIN is never dropped silently.

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

import contextlib
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

from cribbage.errors import StorageError
from cribbage.storage import file_error

PIN_ITERATIONS = 100_000
MAX_PIN_FAILURES = 5
"""Wrong guesses (codes, or PINs) one address may make a ``FAILURE_WINDOW_S``."""
FAILURE_WINDOW_S = 60.0
CODE_BURST, CODE_REFILL_S = 10, 20.0
"""Wrong codes from every address together: 10 at once, then one each 20 s (3 a minute,
1,577,890 a year: 0.18 % of the 887,503,681 codes, so half of them take 281 years)."""
PIN_BURST, PIN_REFILL_S = 10, 4 * 3600.0
"""Wrong PINs from every device the code admitted, together: 10 at once, then one each 4 hours
(2,201 a year: all 10,000 four-digit PINs take 4.5 years, a six-digit PIN 450). The Pi itself is
not counted against it."""

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""The table code's letters: capitals and digits that cannot be mistaken for one another when
read across a table (no 0/O, 1/I/L)."""
CODE_LENGTH = 6


class SettingsDamaged(StorageError):
    """``web.json`` cannot be read as the table's settings: ``crib serve`` stops with this line
    (exit status 2) rather than start again with a new code and no PIN."""

    def __init__(self, message: str) -> None:
        super().__init__(message, cause="damaged")


class WebSettings:
    """The page's own settings file: session key, table code and PIN (``unset``, ``none`` or
    ``set``). A field that is missing is made (a file from before it existed); one that is
    there but damaged is :class:`SettingsDamaged`. A write that fails (a full or read-only card)
    is a :class:`~cribbage.errors.StorageError` and changes nothing, in memory or on the card."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        data = read_settings(path)
        made = dict(data)
        made.setdefault("secret_key", secrets.token_hex(32))
        made.setdefault("table_code", new_table_code())
        self._data = data
        if made != data:
            self._save(made)

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
        digest = hmac.new(self.secret_key.encode(), b"code:" + self.table_code.encode(),
                          hashlib.sha256)
        return digest.hexdigest()[:32]

    def check_code(self, code: object) -> bool:
        """Is ``code`` this table's code (any case; spaces and hyphens ignored)?"""
        given = normal_code(code)
        return given is not None and hmac.compare_digest(given, self.table_code)

    def new_code(self) -> str:
        """Make a new table code (``crib serve --new-code``): devices admitted with the old
        one need the new one."""
        with self._lock:
            self._save({**self._data, "table_code": new_table_code()})
        return self.table_code

    @property
    def pin_state(self) -> str:
        """``'unset'`` before anyone decided (first start), ``'none'`` or ``'set'``."""
        if "pin" not in self._data:
            return "unset"
        return "set" if isinstance(self._data["pin"], dict) else "none"

    @property
    def pin_version(self) -> int:
        """Grows each time the PIN changes, so sessions unlocked with an old PIN lock again."""
        return int(self._data.get("pin_version", 0))

    def set_pin(self, pin: str | None) -> None:
        """Set the PIN (4 to 12 digits) or, with ``None``, decide to have no PIN."""
        stored: dict[str, str] | None = None
        if pin is not None:
            check_pin_format(pin)
            salt = secrets.token_bytes(16)
            digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, PIN_ITERATIONS)
            stored = {"salt": salt.hex(), "hash": digest.hex()}
        with self._lock:
            self._save({**self._data, "pin": stored, "pin_version": self.pin_version + 1})

    def check_pin(self, pin: object) -> bool:
        stored = self._data.get("pin")
        if not isinstance(stored, dict) or not isinstance(pin, str) or len(pin) > 64:
            return False
        digest = hashlib.pbkdf2_hmac(
            "sha256", pin.encode(), bytes.fromhex(stored["salt"]), PIN_ITERATIONS
        )
        return hmac.compare_digest(digest.hex(), stored["hash"])

    def _save(self, data: dict[str, Any]) -> None:
        """Write ``data`` whole (beside, then renamed) and only then take it as the settings."""
        write_private(self.path, json.dumps(data, indent=1), "the table's settings")
        self._data = data


def write_private(path: Path, text: str, what: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, readable by this user only. A full or
    read-only card is a :class:`~cribbage.errors.StorageError` (``what`` names the file in its
    words) and leaves no ``.tmp`` behind."""
    tmp = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        error = file_error(exc, what, path.parent)
        if error is None:
            raise
        raise error from None


def read_settings(path: Path) -> dict[str, Any]:
    """The fields of ``web.json`` (``{}`` when there is none yet), each checked; anything damaged
    is :class:`SettingsDamaged` naming the file and what to do.

    >>> import tempfile
    >>> bad = Path(tempfile.mkdtemp()) / "web.json"
    >>> _ = bad.write_text('{"pin": "garbage"}')
    >>> read_settings(bad)
    Traceback (most recent call last):
    ...
    web.security.SettingsDamaged: ... is damaged (its PIN is not a stored PIN): ...
    """
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise SettingsDamaged(f"cannot read {path} ({exc.strerror})") from None
    except ValueError:
        data = "not JSON"
    why = settings_fault(data)
    if why is not None:
        raise SettingsDamaged(
            f"{path} is damaged ({why}): restore it from a copy, or move it aside to start with "
            "a new table code and no PIN (choose the PIN again with --pin)")
    assert isinstance(data, dict)
    if "table_code" in data:
        data["table_code"] = normal_code(data["table_code"])
    return data


def settings_fault(data: object) -> str | None:
    """What is wrong with ``web.json``'s contents, or None.

    >>> settings_fault({"pin_version": "abc"}), settings_fault({"secret_key": ""})
    ('its pin_version is not a count', 'its secret_key is empty or not text')
    >>> settings_fault({"table_code": "k7mx3p", "pin": None, "pin_version": 2}) is None
    True
    """
    if not isinstance(data, dict):
        return "it is not a settings object: cut short, empty or not JSON"
    key = data.get("secret_key", "x" * 32)
    if not isinstance(key, str) or len(key) < 16:
        return "its secret_key is empty or not text"
    if "table_code" in data and normal_code(data["table_code"]) is None:
        return "its table_code is not a table code"
    pin = data.get("pin")
    if pin is not None and not (isinstance(pin, dict) and _hex(pin.get("salt"), 16)
                                and _hex(pin.get("hash"), 32)):
        return "its PIN is not a stored PIN"
    version = data.get("pin_version", 0)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        return "its pin_version is not a count"
    return None


def _hex(text: object, size: int) -> bool:
    try:
        return isinstance(text, str) and len(bytes.fromhex(text)) == size
    except ValueError:
        return False


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


def client_key(address: str | None) -> str:
    """The address a guess is counted against: an IPv4 address itself, an IPv6 address by its
    /64 (one phone, or one home, holds a whole /64), an IPv4 mapped in IPv6 as the IPv4.

    >>> client_key("192.168.1.20"), client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:10.0.0.9")
    ('192.168.1.20', '2001:db8:1:2::/64', '10.0.0.9')
    """
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return address or "?"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


class Throttle:
    """Counts guesses (of the table code, or of the PIN) so that neither falls within a year.

    Two limits, both checked before a guess is compared (:meth:`reserve`, one step, so a burst
    sent at once is held like guesses sent one by one); a right guess takes its attempt back
    (:meth:`forgive`), a wrong one is written down (:meth:`keep`):

    * per address (:func:`client_key`): ``limit`` guesses a ``window``;
    * every address together: a bucket of ``burst`` guesses that fills again by one each
      ``refill_s``, so a thousand addresses guess no faster than one. An address marked
      ``trusted`` (the companion's own computer) is not counted against the bucket.

    The counts are kept in ``path`` (wall-clock times) after each wrong guess, so a restart does
    not give them back; a right guess writes nothing.

    >>> t = Throttle(limit=2, window=60.0, burst=3, refill_s=100.0)
    >>> t.reserve("a", now=0.0), t.reserve("a", now=1.0), t.reserve("a", now=2.0)
    (0.0, 1.0, None)
    >>> t.blocked("a", now=2.0)
    True
    >>> t.reserve("b", now=3.0), t.reserve("c", now=4.0), round(t.wait_s("c", now=4.0))
    (3.0, None, 96)
    >>> t.forgive("a", 1.0); t.blocked("a", now=5.0), t.reserve("c", now=5.0)
    (False, 5.0)
    >>> t.blocked("a", now=70.0)
    False
    """

    def __init__(self, limit: int = MAX_PIN_FAILURES, window: float = FAILURE_WINDOW_S, *,
                 burst: int = 10, refill_s: float = 20.0, path: Path | None = None) -> None:
        self.limit, self.window = limit, window
        self.burst, self.refill_s = burst, refill_s
        self.path = path
        self._fails: dict[str, list[float]] = {}
        self._tokens, self._at = float(burst), -float("inf")
        self._lock = threading.Lock()
        if path is not None:
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            self._fails = {str(k): [float(t) for t in v] for k, v in data["fails"].items()}
            self._tokens, self._at = float(data["tokens"]), float(data["at"])
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            # unreadable counts: start with an empty bucket rather than a full one
            self._fails, self._tokens, self._at = {}, 0.0, time.time()

    def _recent(self, who: str, now: float) -> list[float]:
        times = [t for t in self._fails.get(who, []) if 0 <= now - t < self.window]
        if times:
            self._fails[who] = times
        else:
            self._fails.pop(who, None)
        return times

    def _fill(self, now: float) -> float:
        if now > self._at:  # a clock set back refills nothing
            self._tokens = min(float(self.burst),
                               self._tokens + (now - self._at) / self.refill_s)
        self._at = now
        return self._tokens

    def blocked(self, who: str, now: float | None = None) -> bool:
        with self._lock:
            return len(self._recent(who, time.time() if now is None else now)) >= self.limit

    def wait_s(self, who: str, now: float | None = None, trusted: bool = False) -> float:
        """Seconds before ``who`` may guess again (0: now)."""
        with self._lock:
            now = time.time() if now is None else now
            times = self._recent(who, now)
            mine = self.window - (now - times[0]) if len(times) >= self.limit else 0.0
            everyone = 0.0 if trusted else max(0.0, (1 - self._fill(now)) * self.refill_s)
            return max(mine, everyone)

    def reserve(self, who: str, now: float | None = None, trusted: bool = False) -> float | None:
        """Count a guess by ``who`` before it is compared: the guess's time stamp, or ``None``
        (nothing counted) when ``who``, or every address together, has had its share."""
        with self._lock:
            now = time.time() if now is None else now
            times = self._recent(who, now)
            if len(times) >= self.limit or (not trusted and self._fill(now) < 1):
                return None
            if not trusted:
                self._tokens -= 1
            times.append(now)
            self._fails[who] = times
            return now

    def keep(self) -> None:
        """Write the counts down: a guess :meth:`reserve` counted was wrong. Addresses whose
        guesses have all aged out are left out."""
        with self._lock:
            if self.path is None:
                return
            now = time.time()
            for who in list(self._fails):
                self._recent(who, now)
            text = json.dumps({"fails": self._fails, "tokens": self._tokens, "at": self._at})
            try:
                write_private(self.path, text, "the count of wrong guesses")
            except (OSError, StorageError):  # a full card: the counts stay in memory only
                return

    def forgive(self, who: str, stamp: float, trusted: bool = False) -> None:
        """Take back the guess ``reserve`` stamped ``stamp``: it was right."""
        with self._lock:
            times = self._fails.get(who, [])
            if stamp in times:
                times.remove(stamp)
                if not trusted:
                    self._tokens = min(float(self.burst), self._tokens + 1)


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
