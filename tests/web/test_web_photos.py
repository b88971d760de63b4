"""Counting a hand by photo or by hand; uploads are images only, capped, stored safely."""

from __future__ import annotations

import io
import re
import struct
import sys
import zlib
from pathlib import Path

import pytest
from flask import Flask
from PIL import Image
from webhelpers import Api

from companion.service import Companion
from web import create_app


def png(width: int = 64, height: int = 48) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (20, 120, 40)).save(buf, "PNG")
    return buf.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A tiny valid PNG whose header claims ``width`` × ``height`` pixels (a decompression bomb)."""
    data = bytearray(png(1, 1))
    ihdr = struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    return bytes(data)


def upload(api: Api, data: bytes, name: str = "hand.png") -> object:
    return api.post("/api/photos", data={"photo": (io.BytesIO(data), name)},
                    content_type="multipart/form-data")


def stored(tmp_path: Path) -> list[str]:
    folder = tmp_path / "photos"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_photo_is_stored_under_a_server_name(api: Api, tmp_path: Path) -> None:
    data = png()
    response = upload(api, data, name="../../etc/passwd.png")
    assert response.status_code == 201
    body = response.get_json()
    assert re.fullmatch(r"[0-9a-f]{32}\.png", body["photo"])
    assert (body["width"], body["height"]) == (64, 48)
    assert stored(tmp_path) == [body["photo"]]
    assert (tmp_path / "photos" / body["photo"]).read_bytes() == data
    served = api.get(body["url"])
    assert served.status_code == 200 and served.data == data
    assert not (tmp_path.parent / "etc").exists()


def test_without_the_card_reader_the_page_asks_for_the_cards(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "vision.reader", None)  # import fails, as before vision
    body = upload(api, png()).get_json()
    assert body["reading"] is None
    assert "not available" in body["message"] and "tap" in body["message"]


def test_with_the_card_reader_a_reading_comes_back(api: Api) -> None:
    pytest.importorskip("vision.reader", reason="vision.reader has not landed")
    body = upload(api, png(320, 240)).get_json()
    if body["reading"] is None:  # a reader that refuses a blank photo says why
        assert body["message"]
    else:
        assert isinstance(body["reading"]["cards"], list)


SPREAD = [("2C", 350, 372, -8), ("3D", 420, 366, -4), ("4H", 490, 360, 0), ("9D", 560, 366, 4)]


def drawn(cards: list[tuple[str, float, float, float]]) -> bytes:
    """A photo of drawn cards on a table, as PNG bytes."""
    cv2 = pytest.importorskip("cv2")
    from vision.synth.compose import drawn_table

    return bytes(cv2.imencode(".png", drawn_table(cards, width=190))[1])


def test_the_card_lying_apart_is_offered_as_the_starter(api: Api) -> None:
    pytest.importorskip("vision.reader", reason="vision.reader has not landed")
    reading = upload(api, drawn([*SPREAD, ("5S", 1000, 450, 10)])).get_json()["reading"]
    assert sorted(c["card"] for c in reading["cards"]) == ["2C", "3D", "4H", "5S", "9D"]
    assert reading["starter_apart"] == "5S"


def test_small_cards_in_a_1080p_photo_are_read_closer(api: Api) -> None:
    """Cards 72 px wide in a 1920x1080 photo are 60 px at the reader's working size, too small
    for some indices there: the Photo tab reads those places again from the photo's own pixels,
    as ``crib detect`` does (it read the photo shrunk to 1600 px before)."""
    cv2 = pytest.importorskip("cv2")
    from vision.synth.compose import drawn_table

    cards = [(n, 300 + 260 * k, 540 + (k % 2) * 160, (k * 29) % 60 - 30)
             for k, n in enumerate(["7H", "TD", "TH", "6D", "2D", "5H"])]
    photo = drawn_table(cards, width=72, seed=2, size=(1080, 1920), table="felt")
    reading = upload(api, bytes(cv2.imencode(".png", photo)[1])).get_json()["reading"]
    assert sorted(c["card"] for c in reading["cards"]) == ["2D", "5H", "6D", "7H", "TD", "TH"]


def test_a_hand_spread_with_no_card_apart_offers_no_starter(api: Api) -> None:
    """The spread's top card shows whole, its centre half a card from the others' indices: it is
    not a card lying apart."""
    pytest.importorskip("vision.reader", reason="vision.reader has not landed")
    reading = upload(api, drawn([*SPREAD, ("KC", 630, 372, 8)])).get_json()["reading"]
    assert len(reading["cards"]) == 5
    assert reading["starter_apart"] is None


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (b"", 400),
        (b"just some text, not a picture", 415),
        (b"GIF89a" + bytes(40), 415),
        (png_claiming(50_000, 50_000), 413),  # Pillow's own bomb limit
        (png_claiming(8_000, 6_000), 413),  # 48 megapixels: over the table's cap
    ],
)
def test_bad_uploads_are_refused_and_nothing_is_stored(
    api: Api, tmp_path: Path, data: bytes, status: int
) -> None:
    response = upload(api, data)
    assert response.status_code == status
    assert response.get_json()["error"]
    assert stored(tmp_path) == []


def test_a_gif_is_refused(api: Api, tmp_path: Path) -> None:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buf, "GIF")
    assert upload(api, buf.getvalue(), "x.gif").status_code == 415
    assert stored(tmp_path) == []


def test_upload_without_a_file(api: Api) -> None:
    response = api.post("/api/photos", data={"other": "x"}, content_type="multipart/form-data")
    assert response.status_code == 400


def test_an_upload_over_the_size_limit_is_413(companion: Companion, tmp_path: Path) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path, "MAX_CONTENT_LENGTH": 20_000})
    api = Api(app.test_client())
    response = upload(api, png(400, 400) + bytes(30_000))
    assert response.status_code == 413 and response.get_json()["error"]
    assert stored(tmp_path) == []


def test_only_server_named_photos_are_served(api: Api, app: Flask) -> None:
    for name in ("web.json", "..%2Fweb.json", "abc.png", "0" * 32 + ".png"):
        assert api.get(f"/api/photos/{name}").status_code == 404


def test_count_a_hand(api: Api) -> None:
    body = api.post("/api/count", {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S"}).get_json()
    assert body["total"] == 29
    assert body["spoken"].endswith("his nobs is twenty-nine")
    assert sum(i["points"] for i in body["items"]) == 29
    crib = api.post("/api/count", {"hand": ["2H", "4H", "6H", "8H"], "starter": "KS",
                                   "crib": True}).get_json()
    assert crib["total"] == 0
    hand = api.post("/api/count", {"hand": ["2H", "4H", "6H", "8H"], "starter": "KS"}).get_json()
    assert hand["total"] == 4  # a four-card flush counts in the hand, not the crib


def test_count_a_three_card_hand(api: Api) -> None:
    body = api.post("/api/count", {"hand": ["5C", "TD", "5H"], "starter": "JS"}).get_json()
    assert body["total"] > 0


@pytest.mark.parametrize(
    "body",
    [
        {"hand": ["5C", "5D", "5H", "JS"]},
        {"hand": "5C 5D 5H JS", "starter": "5S"},
        {"hand": ["5C", "5D", "5H", "JS"], "starter": "5C"},
        {"hand": ["5C", "5D", "5H", "XX"], "starter": "5S"},
        {"hand": ["5C", "5D", "5H", "JS", "2C"], "starter": "5S"},
        {"hand": ["5C", "5C", "5H", "JS"], "starter": "5S"},
        {"hand": [1, 2, 3, 4], "starter": "5S"},
        {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S", "crib": "yes"},
    ],
)
def test_count_refuses_bad_hands(api: Api, body: dict[str, object]) -> None:
    response = api.post("/api/count", body)
    assert response.status_code == 400
    assert response.get_json()["error"]


def test_count_with_each_starter_of_the_pack(api: Api) -> None:
    body = api.post("/api/count/starters", {"cards": ["5C", "5D", "5H", "JS"]}).get_json()
    assert body["starters_from"] == "pack"
    assert len(body["options"]) == 48 == sum(len(g["starters"]) for g in body["groups"])
    assert body["options"][0] == {"starter": "5S", "total": 29}
    assert body["groups"][:2] == [{"total": 29, "starters": ["5S"]},
                                  {"total": 22, "starters": ["JH", "JD", "JC"]}]
    totals = [g["total"] for g in body["groups"]]
    assert totals == sorted(set(totals), reverse=True)
    crib = api.post("/api/count/starters", {"cards": ["2H", "4H", "6H", "8H"], "crib": True}).get_json()
    assert {o["starter"]: o["total"] for o in crib["options"]}["KS"] == 0  # no flush in a crib


def test_count_with_each_of_five_cards_as_the_starter(api: Api) -> None:
    body = api.post("/api/count/starters", {"cards": ["3C", "4C", "5C", "6C", "KH"]}).get_json()
    assert body["starters_from"] == "cards"
    assert body["groups"] == [{"total": 12, "starters": ["KH"]},
                              {"total": 8, "starters": ["3C", "4C", "5C", "6C"]}]


def test_count_with_each_starter_needs_no_pin(app: Flask, api: Api) -> None:
    api.post("/api/pin", {"pin": "4321"})
    phone = Api(app.test_client())
    response = phone.post("/api/count/starters", {"cards": ["5C", "5D", "5H", "JS"]})
    assert response.status_code == 200 and response.get_json()["options"][0]["total"] == 29


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"cards": "5C 5D 5H JS"},
        {"cards": ["5C", "5D"]},
        {"cards": ["5C", "5D", "5H", "JS", "2C", "9D"]},
        {"cards": ["5C", "5C", "5H", "JS"]},
        {"cards": ["5C", "5D", "5H", "XX"]},
        {"cards": [1, 2, 3, 4]},
        {"cards": ["5C", "5D", "5H", "JS"], "crib": "yes"},
        {"cards": ["5C", "5D", "5H"], "crib": True},
    ],
)
def test_count_with_each_starter_refuses_what_is_not_a_hand(api: Api, body: dict[str, object]) -> None:
    response = api.post("/api/count/starters", body)
    assert response.status_code == 400
    assert response.get_json()["error"]


def test_a_phone_photo_turned_by_exif_is_sized_upright(api: Api) -> None:
    buf = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90° clockwise to show": a phone held upright
    Image.new("RGB", (80, 60), (200, 30, 30)).save(buf, "JPEG", exif=exif.tobytes())
    body = upload(api, buf.getvalue(), "portrait.jpg").get_json()
    assert (body["width"], body["height"]) == (60, 80)
    assert body["photo"].endswith(".jpg")


def test_only_the_newest_photos_are_kept(companion: Companion, tmp_path: Path) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path, "KEEP_PHOTOS": 2})
    api = Api(app.test_client())
    names = [upload(api, png(10 + k, 10)).get_json()["photo"] for k in range(4)]
    assert stored(tmp_path) == sorted(names[2:])
    (tmp_path / "photos" / "notes.txt").write_text("mine")
    upload(api, png(30, 30))
    assert "notes.txt" in stored(tmp_path)  # only server-named photos are ever deleted
