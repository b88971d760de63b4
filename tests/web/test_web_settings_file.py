"""``web.json`` damaged, or on a full or read-only card: the start stops with one line naming the
file and what to do (never a new code and the PIN silently gone), and a PIN that cannot be
stored is not enforced either."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from pathlib import Path

import pytest
from webhelpers import Api

from companion.service import Companion
from cribbage.errors import StorageError
from web import create_app
from web.security import SettingsDamaged, WebSettings

GOOD = {"secret_key": "ab" * 32, "table_code": "K7MX3P", "pin_version": 1,
        "pin": {"salt": "00" * 16, "hash": "11" * 32}}

DAMAGED = {
    "truncated": json.dumps(GOOD)[:40].encode(),
    "empty": b"",
    "binary": bytes(range(256)),
    "a list": b"[1, 2]",
    "pin garbage": json.dumps({**GOOD, "pin": "garbage"}).encode(),
    "bad salt": json.dumps({**GOOD, "pin": {"salt": "zz", "hash": "11" * 32}}).encode(),
    "pin_version text": json.dumps({**GOOD, "pin_version": "abc"}).encode(),
    "empty secret_key": json.dumps({**GOOD, "secret_key": ""}).encode(),
    "bad table_code": json.dumps({**GOOD, "table_code": "O0O0O0"}).encode(),
}


@pytest.mark.parametrize("kind", sorted(DAMAGED))
def test_a_damaged_settings_file_stops_the_start(kind: str, tmp_path: Path,
                                                 companion: Companion) -> None:
    path = tmp_path / "web.json"
    path.write_bytes(DAMAGED[kind])
    with pytest.raises(SettingsDamaged, match=r"web\.json is damaged") as caught:
        create_app(companion, {"DATA_DIR": tmp_path})
    assert "\n" not in str(caught.value) and "move it aside" in str(caught.value)
    assert path.read_bytes() == DAMAGED[kind]  # never overwritten


def test_crib_serve_says_it_in_one_line_and_stops(tmp_path: Path) -> None:
    (tmp_path / "web.json").write_text(json.dumps({**GOOD, "pin": "garbage"}))
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "serve", "--port", "0", "--data", str(tmp_path),
         "--leds", "none"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "web.json is damaged" in done.stderr, done.stderr


def test_a_lower_case_code_in_the_file_can_be_entered(tmp_path: Path) -> None:
    (tmp_path / "web.json").write_text(json.dumps({**GOOD, "table_code": "k7mx3p"}))
    settings = WebSettings(tmp_path / "web.json")
    assert settings.table_code == "K7MX3P"
    assert settings.check_code("k7mx3p") and settings.check_code("K7MX3P")


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file the settings open for writing fails as on a full SD card."""
    import web.security as security

    def no_space(*args: object, **kw: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(security.os, "open", no_space)


def test_a_pin_that_cannot_be_stored_is_not_enforced(
        tmp_path: Path, companion: Companion, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path})
    pi = Api(app.test_client())
    before = (tmp_path / "web.json").read_bytes()
    full_disk(monkeypatch)
    refused = pi.post("/api/pin", {"pin": "2468"})
    assert refused.status_code == 507 and refused.get_json()["cause"] == "full"
    assert "SD card is full" in refused.get_json()["error"]
    monkeypatch.undo()
    assert app.extensions["crib"].settings.pin_state == "unset"  # nothing changed in memory
    assert (tmp_path / "web.json").read_bytes() == before  # nor on the card
    assert not (tmp_path / "web.tmp").exists()  # and nothing left beside it
    assert pi.post("/api/games", {}).status_code == 201  # no PIN is asked for


def test_a_full_disk_at_first_start_is_a_storage_error(
        tmp_path: Path, companion: Companion, monkeypatch: pytest.MonkeyPatch) -> None:
    full_disk(monkeypatch)
    with pytest.raises(StorageError, match="SD card is full") as caught:
        create_app(companion, {"DATA_DIR": tmp_path})
    assert caught.value.cause == "full"
    assert not (tmp_path / "web.json").exists() and not (tmp_path / "web.tmp").exists()


def test_crib_serve_on_a_full_disk_says_it_in_one_line(tmp_path: Path) -> None:
    script = (
        "import errno, os, sys\n"
        "import web.security as s\n"
        "def no_space(*a, **k):\n"
        "    raise OSError(errno.ENOSPC, 'No space left on device')\n"
        "s.os = type('os', (), {'open': staticmethod(no_space), 'fdopen': os.fdopen,\n"
        "                       'replace': os.replace, 'fsync': os.fsync, 'O_WRONLY': 0,\n"
        "                       'O_CREAT': 0, 'O_TRUNC': 0})\n"
        "from companion.cli import main\n"
        f"sys.exit(main(['serve', '--port', '0', '--data', {str(tmp_path)!r}, '--leds', 'none']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "SD card is full" in done.stderr, done.stderr
