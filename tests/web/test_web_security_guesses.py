"""Guessing the table code or the PIN: more addresses buy no more guesses, a restart gives none
back, an IPv6 /64 is one address, another site's page cannot use up a phone's tries, and a
proxy on the Pi does not make every phone the Pi.

Flask's test client stands in for each device: ``REMOTE_ADDR`` is its address on the network.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from webhelpers import Api

from companion.service import Companion
from web import create_app
from web.security import (
    CODE_ALPHABET,
    CODE_BURST,
    CODE_LENGTH,
    CODE_REFILL_S,
    MAX_PIN_FAILURES,
    PIN_BURST,
    PIN_REFILL_S,
)

YEAR_S = 365.25 * 24 * 3600


def device(app: Flask, address: str, **environ: str) -> Api:
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": address, **environ})
    return Api(client)


def wrong_code(app: Flask) -> str:
    return "AAAAAA" if app.extensions["crib"].settings.table_code != "AAAAAA" else "BBBBBB"


def code_of(app: Flask) -> str:
    return str(app.extensions["crib"].settings.table_code)


def test_more_addresses_buy_no_more_code_guesses(app: Flask, api: Api) -> None:
    player = device(app, "192.168.1.2")
    assert player.post("/api/code", {"code": code_of(app)}).status_code == 200
    answers = []
    for k in range(40):  # 40 addresses, 2 guesses each: 80 guesses at once
        guesser = device(app, f"10.0.{k}.9")
        answers += [guesser.post("/api/code", {"code": wrong_code(app)}) for _ in range(2)]
    checked = [a for a in answers if a.status_code == 403]
    held = [a for a in answers if a.status_code == 429]
    assert len(checked) == CODE_BURST and len(held) == 80 - CODE_BURST
    assert int(held[-1].headers["Retry-After"]) >= 1
    assert "phones already joined play on" in held[-1].get_json()["error"]
    # a new phone waits too, but the players already in and the Pi play on
    assert device(app, "10.9.9.9").post("/api/code", {"code": code_of(app)}).status_code == 429
    assert player.post("/api/games", {}).status_code == 201
    assert api.post("/api/games", {}).status_code == 201


def test_neither_the_code_nor_a_pin_falls_within_a_year() -> None:
    codes = len(CODE_ALPHABET) ** CODE_LENGTH
    code_guesses = CODE_BURST + YEAR_S / CODE_REFILL_S
    assert code_guesses / codes < 0.002  # 0.18 % of the codes a year
    pin_guesses = PIN_BURST + YEAR_S / PIN_REFILL_S
    assert pin_guesses < 10_000 / 4  # not a quarter of the four-digit PINs a year


def test_pin_guesses_from_admitted_devices_share_one_slow_bucket(app: Flask, api: Api) -> None:
    assert api.post("/api/pin", {"pin": "2468"}).status_code == 200
    answers = []
    for k in range(6):
        phone = device(app, f"10.1.{k}.9")
        phone.post("/api/code", {"code": code_of(app)})
        answers += [phone.post("/api/unlock", {"pin": f"{n:04d}"}).status_code for n in range(3)]
    assert answers.count(403) == PIN_BURST and answers.count(429) == 18 - PIN_BURST
    # the Pi is not held back by the bucket: it still gets its own tries
    assert api.post("/api/unlock", {"pin": "2468"}).status_code == 200


def test_a_restart_keeps_the_counts(companion: Companion, tmp_path: Path) -> None:
    first = create_app(companion, {"DATA_DIR": tmp_path})
    guesser = device(first, "192.168.1.50")
    statuses = [guesser.post("/api/code", {"code": wrong_code(first)}).status_code
                for _ in range(MAX_PIN_FAILURES + 1)]
    assert statuses == [403] * MAX_PIN_FAILURES + [429]
    again = create_app(companion, {"DATA_DIR": tmp_path})
    after = device(again, "192.168.1.50").post("/api/code", {"code": wrong_code(again)})
    assert after.status_code == 429  # still refused after the restart
    assert (tmp_path / "web-tries.code.json").exists()


def test_an_ipv6_64_is_one_address(app: Flask) -> None:
    statuses = [device(app, f"2001:db8:1:2::{k + 1:x}").post(
        "/api/code", {"code": wrong_code(app)}).status_code for k in range(MAX_PIN_FAILURES + 2)]
    assert statuses == [403] * MAX_PIN_FAILURES + [429, 429]
    other = device(app, "2001:db8:1:3::1").post("/api/code", {"code": wrong_code(app)})
    assert other.status_code == 403  # the next /64 has its own tries


def test_another_sites_page_cannot_use_up_the_phones_tries(app: Flask) -> None:
    phone = "192.168.1.40"
    for _ in range(MAX_PIN_FAILURES + 1):  # <img src="http://PI:PORT/?code=WRONG"> six times
        sent = device(app, phone, HTTP_SEC_FETCH_SITE="cross-site", HTTP_SEC_FETCH_DEST="image")
        answer = sent.get(f"/?code={wrong_code(app)}")
        assert answer.status_code == 303 and answer.headers["Location"] == "/"
    older = device(app, phone, HTTP_REFERER="http://evil.example/page")  # no Sec-Fetch-Site
    assert older.get(f"/?code={wrong_code(app)}").status_code == 303
    # nor can it admit: a right code sent from another site's page is not compared
    lured = device(app, phone, HTTP_SEC_FETCH_SITE="cross-site")
    lured.get(f"/?code={code_of(app)}")
    assert lured.get("/api/code").get_json() == {"admitted": False}
    # the phone's own right code, by link and typed, still works
    own = device(app, phone, HTTP_SEC_FETCH_SITE="none")
    assert own.get(f"/?code={code_of(app)}").status_code == 303
    assert own.get("/api/code").get_json()["admitted"] is True
    assert device(app, phone).post("/api/code", {"code": code_of(app)}).status_code == 200


def test_behind_a_proxy_a_forwarded_request_is_not_the_pi(app: Flask) -> None:
    for header in ("HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_FORWARDED"):
        value = "for=192.168.1.30" if header == "HTTP_FORWARDED" else "192.168.1.30"
        proxied = device(app, "127.0.0.1", **{header: value})
        assert proxied.get("/api/code").get_json() == {"admitted": False}, header
        refused = proxied.post("/api/games", {})
        assert refused.status_code == 403 and refused.get_json()["need"] == "code", header
        assert proxied.post("/api/pin", {"pin": "1234"}).status_code == 403, header
    assert app.extensions["crib"].settings.pin_state == "unset"


def test_behind_proxy_counts_the_forwarded_client(companion: Companion, tmp_path: Path) -> None:
    app = create_app(companion, {"DATA_DIR": tmp_path, "TRUSTED_PROXY": "127.0.0.1"})
    guesser = device(app, "127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.168.1.30")
    statuses = [guesser.post("/api/code", {"code": wrong_code(app)}).status_code
                for _ in range(MAX_PIN_FAILURES + 1)]
    assert statuses == [403] * MAX_PIN_FAILURES + [429]
    # another phone through the same proxy has its own tries, and joins
    other = device(app, "127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.31")
    assert other.get("/api/code").get_json() == {"admitted": False}
    assert other.post("/api/code", {"code": code_of(app)}).status_code == 200
    assert other.post("/api/games", {}).status_code == 201
    # a forwarding header from an address that is not the proxy is not believed
    liar = device(app, "192.168.1.77", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert liar.post("/api/games", {}).status_code == 403
    # the Pi's own browser, not through the proxy, is still the Pi
    assert device(app, "127.0.0.1").post("/api/games", {}).status_code == 201


def test_a_bad_behind_proxy_is_one_line_and_status_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "serve", "--port", "0", "--data", str(tmp_path),
         "--leds", "none", "--behind-proxy", "nginx"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--behind-proxy takes the proxy's address" in done.stderr


def test_right_guesses_write_no_counts(app: Flask, api: Api, tmp_path: Path) -> None:
    """A script sending the right code and PIN with every request changes no count: nothing is
    written to the card for it (the tries files are written for wrong guesses only)."""
    assert api.post("/api/pin", {"pin": "9753"}).status_code == 200
    script = device(app, "192.168.1.60")
    headers = {"X-Table-Code": code_of(app), "X-Table-Pin": "9753"}
    for _ in range(3):
        made = script.post("/api/games", {"players": ["Ann", "Bob"]}, headers=headers)
        assert made.status_code == 201, made.get_json()
    assert not list(tmp_path.glob("web-tries*")), "a right guess was written to the card"
    assert script.post("/api/games", {"players": ["Ann", "Bob"]},
                       headers={**headers, "X-Table-Pin": "1111"}).status_code == 403
    assert (tmp_path / "web-tries.pin.json").exists()  # a wrong one is kept over a restart
    assert not (tmp_path / "web-tries.code.json").exists()
