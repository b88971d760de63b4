"""Photo sizes: a phone's 48 MP JPEG is read scaled down (by ``crib detect`` and by the page's
upload) with its real size reported; an absurd one is refused naming its real size; and
``crib vision eval`` prints counts as whole numbers."""

from __future__ import annotations

import io
import json
import re
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main

SCALE = 7.5  # the 1280x720 scene made 9600x5400: 51.8 MP, a phone photo over 40 MP


@pytest.fixture(scope="module")
def phone_jpeg(tmp_path_factory: pytest.TempPathFactory, make_scene) -> Path:
    """A 5H at (640, 360) of a 1280x720 scene, upscaled to 9600x5400 and saved as JPEG."""
    small = make_scene([("5H", 640, 360, 0)], width=200)
    assert small.shape[:2] == (720, 1280)
    big = cv2.resize(small, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_LINEAR)
    path = tmp_path_factory.mktemp("phone") / "phone.jpg"
    assert cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path


def png_claiming(width: int, height: int) -> bytes:
    """A tiny valid PNG whose header claims ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 10))
            + chunk(b"IEND", b""))


def test_detect_reads_a_48mp_phone_photo_scaled_down(phone_jpeg: Path, capsys) -> None:
    assert main(["detect", str(phone_jpeg), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["width"], result["height"]) == (9600, 5400)  # its real size
    assert result["scale"] == 2.0
    [card] = result["cards"]
    assert card["card"] == "5H"
    # the centre and corners in the photo's own pixels, not the half-size ones it was read at
    centre = np.array(card["center"])
    assert np.all(np.abs(centre - np.array([640, 360]) * SCALE) < 600), centre
    quad = np.array(card["quad"])
    assert quad[:, 0].max() > 4800 and quad[:, 1].max() > 2700 * 0.9


def test_detect_names_the_real_size_of_an_absurd_photo(tmp_path: Path, capsys) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(png_claiming(16_000, 12_000))
    assert main(["detect", str(path)]) == 2
    err = capsys.readouterr().err
    assert "16000x12000 is 192 MP" in err and "40000001" not in err
    assert err.count("\n") == 1
    path.write_bytes(png_claiming(25_000, 20_000))
    assert main(["detect", str(path)]) == 2
    assert "25000x20000 is 500 MP, over the 400 MP limit" in capsys.readouterr().err


def _upload(phone_jpeg: Path, tmp_path: Path, config: dict) -> dict:
    from companion.service import Companion
    from cribbage.gamelog import GameStore
    from web import create_app

    table = Companion(GameStore(tmp_path / "games.sqlite3"), leds="none")
    try:
        client = create_app(table, {"DATA_DIR": tmp_path, **config}).test_client()
        csrf = client.get("/api/session").get_json()["csrf"]
        response = client.post("/api/photos", headers={"X-CSRF-Token": csrf},
                               data={"photo": (io.BytesIO(phone_jpeg.read_bytes()), "phone.jpg")},
                               content_type="multipart/form-data")
        body = response.get_json()
        assert response.status_code == 201, body
        return body  # type: ignore[no-any-return]
    finally:
        table.close()


def test_eval_prints_counts_as_whole_numbers(tmp_path: Path, make_scene, capsys) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), make_scene([("5H", 400, 360, 0)], width=200))
    cv2.imwrite(str(tmp_path / "b.png"), make_scene([("7S", 640, 360, 0)], width=200))
    labels = {"a.png": {"cards": ["5H"], "kind": "photo_single", "group": "g"},
              "b.png": {"cards": ["9C"], "kind": "photo_single", "group": "g"}}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    assert main(["vision", "eval", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"photo_single\s+images\s+2  ", out), out
    assert re.search(r"false cards 1 ", out), out
    assert not re.search(r"(?<!exact )images\s+\d+\.\d", out), out
    assert re.search(r"groups\s+1  ", out), out  # two images of one group weigh one
    assert main(["vision", "eval", str(tmp_path), "--json"]) == 0
    kind = json.loads(capsys.readouterr().out)["per_kind"]["photo_single"]
    assert kind["images"] == 2 and isinstance(kind["images"], int)
