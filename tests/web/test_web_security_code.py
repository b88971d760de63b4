"""The table code: another device needs it once to change the table; the Pi itself never does.

Flask's test client stands in for each device: ``REMOTE_ADDR`` is the phone's address on the
network (a loopback address is the companion's own computer).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from webhelpers import Api

from companion.service import Companion
from web import create_app
from web.security import CODE_ALPHABET

PHONE = {"REMOTE_ADDR": "192.168.1.30"}
OTHER_PHONE = {"REMOTE_ADDR": "192.168.1.31"}


def device(app: Flask, environ: dict[str, str]) -> Api:
    """A device at ``environ``'s address, with its own session and CSRF token."""
    client = app.test_client()
    client.environ_base.update(environ)
    return Api(client)


def code_of(app: Flask) -> str:
    return str(app.extensions["crib"].settings.table_code)


def test_the_code_is_made_at_first_start_and_kept(companion: Companion, tmp_path: Path) -> None:
    first = create_app(companion, {"DATA_DIR": tmp_path})
    code = code_of(first)
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{6}}", code)
    assert json.loads((tmp_path / "web.json").read_text())["table_code"] == code
    assert code_of(create_app(companion, {"DATA_DIR": tmp_path})) == code  # a restart keeps it


def test_another_device_watches_freely_but_needs_the_code_to_change(app: Flask, api: Api) -> None:
    game = api.new_game()  # the Pi itself (loopback) needs no code
    phone = device(app, PHONE)
    assert phone.get("/").status_code == 200
    assert phone.get(f"/api/games/{game}").status_code == 200
    assert phone.get("/api/session").status_code == 200
    refused = phone.post(f"/api/games/{game}/events", {"type": "adjust", "seat": "A", "points": 120,
                                                      "reason": "mine"})
    assert refused.status_code == 403 and refused.get_json()["need"] == "code"
    assert "table code" in refused.get_json()["error"]
    assert phone.post("/api/games", {}).status_code == 403
    assert api.get(f"/api/games/{game}").get_json()["state"]["scores"] == {"A": 0, "B": 0}
    assert len(api.get("/api/games").get_json()["games"]) == 1
    # what changes nothing stays open: counting a hand
    assert phone.post("/api/count", {"hand": ["5C", "5D", "5H", "JS"],
                                     "starter": "5S"}).get_json()["total"] == 29
    # and it cannot see the code
    assert phone.get("/api/code").get_json() == {"admitted": False}
    shown = phone.get("/api/code.svg")
    assert shown.status_code == 403 and shown.get_json()["need"] == "code"


def test_the_code_once_admits_the_device(app: Flask, api: Api) -> None:
    code = code_of(app)
    phone = device(app, PHONE)
    wrong = phone.post("/api/code", {"code": "AAAAAA" if code != "AAAAAA" else "BBBBBB"})
    assert wrong.status_code == 403 and wrong.get_json()["need"] == "code"
    assert phone.post("/api/code", {"code": 12}).status_code == 403
    assert phone.post("/api/code", ["not", "an", "object"]).status_code == 400
    typed = f" {code[:3].lower()}-{code[3:]} "  # as typed on a phone
    assert phone.post("/api/code", {"code": typed}).get_json() == {"admitted": True}
    game = phone.new_game()
    assert phone.event(game, {"type": "dealer", "seat": "A"})["state"]["dealer"] == "A"
    shown = phone.get("/api/code").get_json()
    assert shown["admitted"] is True and shown["code"] == code and shown["here"] is False
    assert shown["link"] == f"http://localhost/?code={code}"
    # another phone is still turned away
    assert device(app, OTHER_PHONE).post("/api/games", {}).status_code == 403


def test_the_first_pin_needs_the_code_or_the_pi_itself(app: Flask, api: Api) -> None:
    phone = device(app, PHONE)
    refused = phone.post("/api/pin", {"pin": "1234"})
    assert refused.status_code == 403 and refused.get_json()["need"] == "code"
    assert phone.post("/api/pin", {"pin": None}).status_code == 403  # nor decide on none
    assert api.get("/api/session").get_json()["pin"] == "unset"
    phone.post("/api/code", {"code": code_of(app)})
    assert phone.post("/api/pin", {"pin": "1234"}).get_json() == {"pin": "set", "unlocked": True}


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_the_pi_itself_sets_the_first_pin(app: Flask, address: str) -> None:
    pi = device(app, {"REMOTE_ADDR": address})
    assert pi.post("/api/pin", {"pin": "2468"}).get_json() == {"pin": "set", "unlocked": True}


def test_the_pin_alone_never_admits_a_device(app: Flask, api: Api) -> None:
    api.post("/api/pin", {"pin": "2468"})
    phone = device(app, PHONE)
    refused = phone.post("/api/games", {})
    assert refused.status_code == 403 and refused.get_json()["need"] == "code"
    assert "code and then the table PIN" in refused.get_json()["error"]  # names both
    unlock = phone.post("/api/unlock", {"pin": "2468"})  # the right PIN, without the code
    assert unlock.status_code == 403 and unlock.get_json()["need"] == "code"
    assert phone.post("/api/games", {}).status_code == 403
    assert phone.get("/api/code").get_json() == {"admitted": False}  # the code is not handed over
    header = phone.post("/api/games", {}, headers={"X-Table-Pin": "2468"})
    assert header.status_code == 403 and header.get_json()["need"] == "code"
    # with the code first, the PIN unlocks
    assert phone.post("/api/code", {"code": code_of(app)}).status_code == 200
    assert phone.post("/api/unlock", {"pin": "2468"}).get_json() == {"unlocked": True}
    assert phone.post("/api/games", {}).status_code == 201


def test_with_a_pin_the_code_alone_is_not_enough(app: Flask, api: Api) -> None:
    api.post("/api/pin", {"pin": "2468"})
    phone = device(app, PHONE)
    phone.post("/api/code", {"code": code_of(app)})
    refused = phone.post("/api/games", {})
    assert refused.status_code == 403 and refused.get_json()["need"] == "pin"


def test_a_link_with_the_code_admits_and_leaves_the_address(app: Flask, api: Api) -> None:
    code = code_of(app)
    phone = device(app, PHONE)
    jump = phone.get(f"/?code={code.lower()}")
    assert jump.status_code == 303 and jump.headers["Location"] == "/"
    game = phone.new_game()
    kept = phone.get(f"/games/{game}?code={code}&x=1")
    assert kept.status_code == 303 and kept.headers["Location"] == f"/games/{game}?x=1"
    stranger = device(app, OTHER_PHONE)
    wrong = stranger.get("/?code=ZZZZZZ" if code != "ZZZZZZ" else "/?code=YYYYYY")
    assert wrong.status_code == 200  # the page, which says the code was not this table's
    assert stranger.post("/api/games", {}).status_code == 403


def test_scripts_send_the_code_in_a_header(app: Flask, api: Api) -> None:
    script = device(app, PHONE)
    ok = script.post("/api/games", {}, headers={"X-Table-Code": code_of(app)})
    assert ok.status_code == 201
    bad = script.post("/api/games", {}, headers={"X-Table-Code": "nope"})
    assert bad.status_code == 403 and bad.get_json()["need"] == "code"
    assert script.post("/api/games", {}).status_code == 403  # a header admits one request only


def test_wrong_codes_are_throttled(app: Flask, api: Api) -> None:
    code = code_of(app)
    guesser = device(app, PHONE)
    wrong = "AAAAAA" if code != "AAAAAA" else "BBBBBB"
    statuses = [guesser.post("/api/code", {"code": wrong}).status_code for _ in range(7)]
    assert statuses == [403] * 5 + [429] * 2
    assert guesser.post("/api/code", {"code": code}).status_code == 429  # even the right one, now
    assert guesser.get(f"/?code={code}").status_code == 200  # a link is counted too: no way in
    assert device(app, OTHER_PHONE).post("/api/code", {"code": code}).status_code == 200


def test_a_new_code_turns_admitted_devices_away(companion: Companion, tmp_path: Path) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path})
    old = code_of(app)
    phone = device(app, PHONE)
    phone.post("/api/code", {"code": old})
    assert phone.post("/api/games", {}).status_code == 201
    again = create_app(companion, {"DATA_DIR": tmp_path, "NEW_CODE": True})
    assert code_of(again) != old
    phone_again = device(again, PHONE)
    phone_again.client.set_cookie("session", phone.client.get_cookie("session").value)
    phone_again.csrf = phone.csrf  # the same phone, the same session cookie, after a restart
    refused = phone_again.post("/api/games", {})
    assert refused.status_code == 403 and refused.get_json()["need"] == "code"


def qr_text(svg: str) -> str:
    """Read a QR code drawn as segno draws SVG (one path of horizontal runs) with OpenCV."""
    scale = float(re.search(r'scale\((\d+(?:\.\d+)?)\)', svg).group(1))  # type: ignore[union-attr]
    size = int(float(re.search(r'width="(\d+)"', svg).group(1)) / scale)  # type: ignore[union-attr]
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    grid = np.full((size, size), 255, np.uint8)
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s+(-?[\d.]+))?", path):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            grid[int(y), int(x):int(x + float(a))] = 0
            x += float(a)
    image = cv2.resize(grid, (size * 8, size * 8), interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


def test_the_qr_code_is_the_link_with_the_code(companion: Companion, tmp_path: Path) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path, "LISTEN_HOST": "192.168.1.20"})
    pi = Api(app.test_client())
    shown: dict[str, Any] = pi.get("/api/code").get_json()
    # on the Pi's own screen (localhost) the link is the one a phone on the network opens
    assert shown["link"] == f"http://192.168.1.20/?code={code_of(app)}" and shown["here"] is True
    qr = pi.get("/api/code.svg")
    assert qr.mimetype == "image/svg+xml" and qr.headers["Cache-Control"] == "no-store"
    assert qr_text(qr.get_data(as_text=True)) == shown["link"]
    phone = device(app, PHONE)
    phone.client.get(shown["link"].replace("http://192.168.1.20", ""))  # the phone scans it
    assert phone.post("/api/games", {}).status_code == 201
