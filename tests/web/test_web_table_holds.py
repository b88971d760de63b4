"""Smaller holds of the table: the PIN is removed only when asked by name, a photo on a full
TMPDIR is 507, a storage refusal names no server folder, the access log never writes a table
code, and photo files half written by a kill are cleared at start."""

from __future__ import annotations

import errno
import io
import logging
import os
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image
from webhelpers import Api

from companion.service import Companion
from web import create_app


def test_a_pin_body_without_pin_changes_nothing(app: Flask, api: Api) -> None:
    assert api.post("/api/pin", {"pin": "2468"}).status_code == 200
    for body in ({}, {"pni": "1234"}, {"PIN": None}):
        answer = api.post("/api/pin", body)
        assert answer.status_code == 400 and '"pin": null' in answer.get_json()["error"], body
    assert app.extensions["crib"].settings.pin_state == "set"
    assert api.post("/api/pin", {"pin": None}).get_json()["pin"] == "none"  # said by name


def big_png() -> bytes:
    buf = io.BytesIO()
    Image.fromarray(__import__("numpy").random.default_rng(1).integers(
        0, 255, (600, 600, 3), dtype="uint8")).save(buf, "PNG")
    assert len(buf.getvalue()) > 600_000  # spooled to TMPDIR while the form is read
    return buf.getvalue()


class FullSpool(io.BytesIO):
    """TMPDIR on a full card: the spool takes 500 KB in memory, then the disk refuses."""

    def write(self, data: Any) -> int:
        if self.tell() + len(data) > 500 * 1024:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return super().write(data)


def test_a_photo_on_a_full_tmpdir_is_507(app: Flask, api: Api,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import werkzeug.wrappers.request as wrequest

    monkeypatch.setattr(wrequest, "default_stream_factory", lambda **kw: FullSpool())
    answer = api.post("/api/photos", data={"photo": (io.BytesIO(big_png()), "h.png")},
                      content_type="multipart/form-data")
    assert answer.status_code == 507, answer.get_json()
    assert answer.get_json()["cause"] == "full" and "SD card is full" in answer.get_json()["error"]


def test_a_storage_refusal_names_no_server_folder(app: Flask, api: Api, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(path: Path, data: bytes) -> int:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(Path, "write_bytes", read_only)
    buf = io.BytesIO()
    Image.new("RGB", (64, 48)).save(buf, "PNG")
    answer = api.post("/api/photos", data={"photo": (io.BytesIO(buf.getvalue()), "h.png")},
                      content_type="multipart/form-data")
    assert answer.status_code == 503
    error = answer.get_json()["error"]
    assert str(tmp_path) not in error and "/" not in error, error
    assert "read-only" in error


def test_the_access_log_never_writes_the_code(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    code = app.extensions["crib"].settings.table_code
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    with caplog.at_level(logging.INFO, logger="web.access"):
        phone.get(f"/?code={code}&x=1")
        phone.get("/?code=WRONG9")
    logged = " ".join(r.getMessage() for r in caplog.records if r.name == "web.access")
    assert "code=" in logged and code not in logged and "WRONG9" not in logged, logged


def test_half_written_photos_are_cleared_at_start(companion: Companion, tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / ".0123abcd.jpg.part").write_bytes(b"half a photo")
    kept = photos / ("0" * 32 + ".jpg")
    kept.write_bytes(b"a whole one")
    create_app(companion, {"DATA_DIR": tmp_path})
    assert sorted(p.name for p in photos.iterdir()) == [kept.name]
