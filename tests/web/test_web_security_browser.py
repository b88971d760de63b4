"""The table code in real Chromium: the Pi's own page shows it and its QR code; a phone on the
network watches, is asked for the code when it tries to change the game, joins with it, or
scans the QR code's link.

``crib serve --host 0.0.0.0``; the phone opens the table by this machine's network address
(skipped when it has none but loopback). Skipped too without Chromium or Playwright.
"""

from __future__ import annotations

import base64
import ipaddress
import json
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np
import pytest
from browserkit import TIMEOUT, chromium_path, start_server, stop_server

from web.hosts import interface_addresses

pytestmark = pytest.mark.browser

if chromium_path() is None:
    pytest.skip("browser tests skipped: Chromium not found (apt-get install -y chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="browser tests skipped: pip install playwright")
expect = sync_api.expect

ADDRESS = min((a for a in interface_addresses()
               if ":" not in a and not ipaddress.ip_address(a).is_loopback), default=None)
if ADDRESS is None:
    pytest.skip("this machine has no network address but loopback", allow_module_level=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """The Pi's address, a phone's address of the same table, and its table code."""
    data = tmp_path_factory.mktemp("tablecode")
    proc, url = start_server(data, "--host", "0.0.0.0", "--leds", "none")
    port = url.rsplit(":", 1)[1].strip("/")
    yield url, f"http://{ADDRESS}:{port}/", json.loads((data / "web.json").read_text())["table_code"]
    stop_server(proc)


def open_at(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if "Refused" in msg.text else None)
    page.goto(url)
    return page


@pytest.fixture
def pages(browser: Any) -> Iterator[list[Any]]:
    opened: list[Any] = []
    yield opened
    for page in opened:
        errors = page.errors
        page.context.close()
        assert errors == [], errors


def drawn(img: Any) -> np.ndarray:
    """The image as the browser draws it at its shown size, on white with a quiet zone.

    Drawn through a canvas rather than taken from the screen, so that nothing passing over the
    page (a toast, a scroll) can cover the code being read.
    """
    url = img.evaluate(
        """(img) => {
            const r = img.getBoundingClientRect(), pad = 32, c = document.createElement("canvas");
            c.width = Math.round(r.width) + 2 * pad; c.height = Math.round(r.height) + 2 * pad;
            const g = c.getContext("2d");
            g.fillStyle = "#fff"; g.fillRect(0, 0, c.width, c.height);
            g.drawImage(img, pad, pad, Math.round(r.width), Math.round(r.height));
            return c.toDataURL("image/png");
        }"""
    )
    png = base64.b64decode(url.split(",", 1)[1])
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)


def test_the_pi_shows_the_code_and_its_qr_code(browser: Any, served: tuple[str, str, str],
                                               pages: list[Any]) -> None:
    pi_url, _, code = served
    pi = open_at(browser, pi_url)
    pages.append(pi)
    pi.click("#tabs >> text=New")
    expect(pi.locator("#table-code .tc-code")).to_have_text(code)
    expect(pi.locator("#join-btn")).to_be_hidden()
    qr = pi.locator("#table-code img.tc-qr")
    expect(qr).to_be_visible()
    pi.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=qr.element_handle())
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(drawn(qr))
    link = pi.evaluate("fetch('/api/code').then((r) => r.json()).then((s) => s.link)")
    assert text == link and link.endswith(f"/?code={code}") and "127.0.0.1" not in link


def test_a_phone_joins_with_the_code_when_it_first_changes_something(
    browser: Any, served: tuple[str, str, str], pages: list[Any]
) -> None:
    _, phone_url, code = served
    phone = open_at(browser, phone_url)
    pages.append(phone)
    expect(phone.locator("#join-btn")).to_be_visible()
    phone.click("#tabs >> text=New")
    expect(phone.locator("#table-code")).to_be_hidden()  # the code is not shown to a stranger
    phone.locator('#players input[name="player"]').nth(0).fill("Ann")
    phone.click("#new-form button.primary")
    expect(phone.locator("#join")).to_be_visible()  # refused for want of the code: asked for it
    phone.fill("#join input[name=code]", "zzzzzz")
    phone.click("#join button.primary")
    expect(phone.locator("#join .hint.bad")).to_contain_text("not this table's code")
    phone.fill("#join input[name=code]", code.lower())
    phone.click("#join button.primary")
    expect(phone.locator("#toast")).to_contain_text("Joined")
    expect(phone.locator("#join")).to_be_hidden()
    expect(phone.locator("#join-btn")).to_be_hidden()
    expect(phone.locator("#table-code .tc-code")).to_have_text(code)  # now it may pass it on
    phone.click("#new-form button.primary")
    expect(phone.locator("#next")).to_contain_text("choose the dealer")


def test_scanning_the_link_lets_a_phone_in(browser: Any, served: tuple[str, str, str],
                                           pages: list[Any]) -> None:
    _, phone_url, code = served
    phone = open_at(browser, f"{phone_url}?code={code}")
    pages.append(phone)
    expect(phone.locator("#join-btn")).to_be_hidden()
    expect(phone.locator("#toast")).to_contain_text("Joined by the link")  # said, once
    assert "code=" not in phone.url
    wrong = open_at(browser, f"{phone_url}?code=ZZZZZ2")
    pages.append(wrong)
    expect(wrong.locator("#join")).to_be_visible()
    expect(wrong.locator("#join .hint.bad")).to_contain_text("not this table's")
    assert "code=" not in wrong.url


def test_with_a_pin_a_new_phone_is_told_code_first_then_pin(
        browser: Any, tmp_path_factory: pytest.TempPathFactory, pages: list[Any]) -> None:
    data = tmp_path_factory.mktemp("withpin")
    proc, url = start_server(data, "--host", "0.0.0.0", "--leds", "none", "--pin", "2468")
    try:
        port = url.rsplit(":", 1)[1].strip("/")
        code = json.loads((data / "web.json").read_text())["table_code"]
        phone = open_at(browser, f"http://{ADDRESS}:{port}/")
        pages.append(phone)
        phone.click("#join-btn")
        expect(phone.locator("#join .tc-how")).to_contain_text(
            "first Join with the table code (ask a player), then Unlock with the table PIN")
        expect(phone.locator("#join input[name=code]")).to_have_attribute(
            "placeholder", "6 letters or digits")
        phone.fill("#join input[name=code]", code)
        phone.click("#join button.primary")
        expect(phone.locator("#toast")).to_contain_text("once unlocked with the table PIN")
        expect(phone.locator("#unlock")).to_be_visible()  # what to do next is open
        phone.fill("#unlock input[name=pin]", "2468")
        phone.click("#unlock button")
        expect(phone.locator("#toast")).to_contain_text("Unlocked")
    finally:
        stop_server(proc)


def test_on_this_computer_only_no_qr_code_invites_phones(
        browser: Any, tmp_path_factory: pytest.TempPathFactory, pages: list[Any]) -> None:
    proc, url = start_server(tmp_path_factory.mktemp("localonly"), "--leds", "none")
    try:
        pi = open_at(browser, url)
        pages.append(pi)
        pi.click("#tabs >> text=New")
        expect(pi.locator("#table-code .tc-link")).to_contain_text(
            "Phones cannot join: this table listens on this computer only")
        expect(pi.locator("#table-code .tc-link")).to_contain_text("make run HOST=0.0.0.0")
        expect(pi.locator("#table-code img.tc-qr")).to_be_hidden()
    finally:
        stop_server(proc)
