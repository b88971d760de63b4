"""Taking a photo in: a phone's photo over 40 MP is read scaled down, what cannot be read within the
pixel budget or is cut short is refused and not stored, and uploads take turns at the reader."""

from __future__ import annotations

import io
import re
import struct
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from webhelpers import Api

from companion.service import Companion
from cribbage.gamelog import GameStore
from web import create_app
from web.ports import PhotoUnreadable

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[2]


def upload(api: Api, data: bytes, name: str = "hand.jpg") -> Any:
    return api.post("/api/photos", data={"photo": (io.BytesIO(data), name)},
                    content_type="multipart/form-data")


def stored(tmp_path: Path) -> list[str]:
    folder = tmp_path / "photos"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def jpeg(width: int = 80, height: int = 60, seed: int = 1) -> bytes:
    noise = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    return bytes(cv2.imencode(".jpg", noise)[1])


def png(width: int = 80, height: int = 60) -> bytes:
    return bytes(cv2.imencode(".png", np.full((height, width, 3), 90, np.uint8))[1])


def jpeg_claiming(width: int, height: int) -> bytes:
    """A small JPEG whose frame header (SOF0) claims ``width`` x ``height`` pixels."""
    data = bytearray(jpeg())
    sof = data.find(b"\xff\xc0")
    struct.pack_into(">HH", data, sof + 5, height, width)
    return bytes(data)


SCALE = 7.5  # the 1280x720 drawn table made 9600x5400: 51.8 MP, a phone photo over 40 MP


@pytest.fixture(scope="module")
def phone_jpeg() -> bytes:
    """A 5H at (640, 360) of a 1280x720 drawn table, upscaled to 9600x5400, as JPEG."""
    from vision.synth.compose import drawn_table

    small = drawn_table([("5H", 640, 360, 0)], width=200)
    big = cv2.resize(small, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_LINEAR)
    return bytes(cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 90])[1])


def test_a_phone_photo_over_40_megapixels_is_read_scaled_down(
    api: Api, tmp_path: Path, phone_jpeg: bytes
) -> None:
    pytest.importorskip("vision.reader")
    response = upload(api, phone_jpeg, "phone.jpg")
    body = response.get_json()
    assert response.status_code == 201, body
    assert (body["width"], body["height"]) == (9600, 5400)
    assert stored(tmp_path) == [body["photo"]]
    [card] = body["reading"]["cards"]
    assert card["card"] == "5H"
    # where it lies, in the photo's own pixels (not those of the smaller size it was read at)
    assert np.all(np.abs(np.array(card["center"]) - np.array([640, 360]) * SCALE) < 600), card


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header (IHDR, its checksum right) claims ``width`` x ``height`` pixels."""
    data = bytearray(png(1, 1))
    ihdr = struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    return bytes(data)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (jpeg_claiming(25_000, 20_000), "25000x20000 is 500 MP, over the 400 MP limit"),
        (png_claiming(8000, 6000), "8000x6000 is 48 MP, over the 40 MP a PNG is read at"),
        (png_claiming(6400, 6400), "6400x6400 is 41 MP, over the 40 MP a PNG is read at"),
    ],
    ids=["jpeg-500MP", "png-48MP", "png-41MP"],
)
def test_what_cannot_be_read_within_the_budget_is_refused_naming_its_size(
    api: Api, tmp_path: Path, data: bytes, said: str
) -> None:
    response = upload(api, data)
    assert response.status_code == 413
    assert said in response.get_json()["error"]
    assert stored(tmp_path) == []


def cut(data: bytes, fraction: float) -> bytes:
    return data[: int(len(data) * fraction)]


def damaged_png() -> bytes:
    data = bytearray(png(200, 150))
    idat = data.find(b"IDAT")
    data[idat + 10] ^= 0xFF  # one byte of the image data, its checksum left as it was
    return bytes(data)


@pytest.mark.parametrize(
    ("data", "name", "said"),
    [
        (cut(jpeg(400, 300), 0.5), "half.jpg", "cut short"),
        (cut(jpeg(400, 300), 0.99), "nearly.jpg", "cut short"),
        (cut(png(400, 300), 0.9), "cut.png", "cut short"),
        (damaged_png(), "damaged.png", "damaged"),
    ],
    ids=["jpeg-half", "jpeg-99%", "png-90%", "png-bad-crc"],
)
@pytest.mark.parametrize("reader", ["running", "missing"])
def test_a_photo_cut_short_or_damaged_is_refused_and_not_stored(
    api: Api, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    data: bytes, name: str, said: str, reader: str
) -> None:
    if reader == "missing":
        monkeypatch.setitem(sys.modules, "vision.reader", None)
    response = upload(api, data, name)
    assert response.status_code == 400, response.get_json()
    assert said in response.get_json()["error"]
    assert stored(tmp_path) == []


def test_a_photo_the_reader_cannot_decode_is_refused_and_not_stored(
    api: Api, tmp_path: Path, companion: Companion
) -> None:
    """Whole by its structure, but its Huffman table is garbage: only decoding finds out."""
    pytest.importorskip("vision.reader")
    data = bytearray(jpeg(80, 60))
    dht = data.find(b"\xff\xc4")
    data[dht + 5:dht + 25] = b"\x7f" * 20
    with pytest.raises(PhotoUnreadable):
        companion.read_cards(bytes(data))
    response = upload(api, bytes(data))
    assert response.status_code == 400
    assert "cannot be read" in response.get_json()["error"]
    assert stored(tmp_path) == []


class SlowReader(Companion):
    """A companion whose card reader takes its time, counting how many read at once."""

    def __init__(self, store: GameStore, hold: threading.Event | None = None) -> None:
        super().__init__(store, leds="none")
        self.hold = hold
        self.lock = threading.Lock()
        self.reading = self.most = 0

    def read_cards(self, image: bytes) -> dict[str, Any]:
        with self.lock:
            self.reading += 1
            self.most = max(self.most, self.reading)
        try:
            if self.hold is not None:
                self.hold.wait(10)
            else:
                time.sleep(0.15)
            return {"cards": [], "unreadable": []}
        finally:
            with self.lock:
                self.reading -= 1


def together(app: Flask, count: int, data: bytes) -> list[Any]:
    phones = [Api(app.test_client()) for _ in range(count)]
    start = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def send(k: int) -> None:
        start.wait()
        answers[k] = upload(phones[k], data, "hand.png")

    threads = [threading.Thread(target=send, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return answers


def test_uploads_take_turns_at_the_reader(tmp_path: Path) -> None:
    table = SlowReader(GameStore(tmp_path / "games.sqlite3"))
    try:
        app = create_app(table, {"DATA_DIR": tmp_path, "PHOTO_READERS": 2, "PHOTO_WAIT_S": 20})
        answers = together(app, 10, png())
        assert [a.status_code for a in answers] == [201] * 10
        assert table.most == 2
        assert len(stored(tmp_path)) == 10
    finally:
        table.close()


def test_a_photo_that_waits_too_long_is_told_to_try_again(tmp_path: Path) -> None:
    hold = threading.Event()
    table = SlowReader(GameStore(tmp_path / "games.sqlite3"), hold)
    try:
        app = create_app(table, {"DATA_DIR": tmp_path, "PHOTO_READERS": 1, "PHOTO_WAIT_S": 0.2})
        first: list[Any] = []
        reading = threading.Thread(target=lambda: first.append(upload(Api(app.test_client()), png())))
        reading.start()
        while table.reading == 0:
            time.sleep(0.01)
        response = upload(Api(app.test_client()), png(90, 70))
        assert response.status_code == 503
        assert int(response.headers["Retry-After"]) > 0
        assert "busy" in response.get_json()["error"]
        assert stored(tmp_path) == []  # the refused one is not kept; the first is still reading
        hold.set()
        reading.join(10)
        assert first[0].status_code == 201
        assert stored(tmp_path) == [first[0].get_json()["photo"]]
    finally:
        hold.set()
        table.close()


def test_the_pixel_budget_is_written_once() -> None:
    """40 MP and 400 MP are numbers of :mod:`imaging.limits` only; the page and the reader use it."""
    budget = re.compile(r"\b4(0|00)_000_000\b")
    for part in ("web", "vision", "companion", "imaging"):
        for path in (ROOT / part).rglob("*.py"):
            if budget.search(path.read_text(encoding="utf-8")):
                assert path.relative_to(ROOT).as_posix() == "imaging/limits.py", path
