"""The PIN throttle holds under a burst: guesses sent all at once get no more PIN checks than
guesses sent one by one; a table without a PIN says so instead of counting guesses."""

from __future__ import annotations

import threading
from collections import Counter

from flask import Flask
from webhelpers import Api

from web.security import MAX_PIN_FAILURES

BURST = 70


def burst(app: Flask, send: str) -> Counter[str]:
    """``BURST`` wrong PINs from one address at the same moment, each from its own session;
    how many were checked ("wrong PIN", 403) and how many refused unchecked (429)."""
    phones = [Api(app.test_client()) for _ in range(BURST)]
    start = threading.Barrier(BURST)
    answers: list[int] = []

    def guess(k: int) -> None:
        pin = f"{k:04d}"
        start.wait()
        if send == "unlock":
            response = phones[k].post("/api/unlock", {"pin": pin})
        else:  # a script's change with the header
            response = phones[k].post("/api/games", {"players": ["A", "B"]},
                                      headers={"X-Table-Pin": pin})
        answers.append(response.status_code)

    threads = [threading.Thread(target=guess, args=(k,)) for k in range(BURST)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return Counter({403: "checked", 429: "refused"}.get(code, str(code)) for code in answers)


def with_pin(api: Api) -> None:
    assert api.post("/api/pin", {"pin": "9753"}).status_code == 200


def test_a_burst_of_wrong_pins_gets_five_checks(app: Flask, api: Api) -> None:
    with_pin(api)
    counts = burst(app, "unlock")
    assert counts == {"checked": MAX_PIN_FAILURES, "refused": BURST - MAX_PIN_FAILURES}, counts


def test_a_burst_of_wrong_pin_headers_gets_five_checks(app: Flask, api: Api) -> None:
    with_pin(api)
    counts = burst(app, "header")
    assert counts == {"checked": MAX_PIN_FAILURES, "refused": BURST - MAX_PIN_FAILURES}, counts
    assert api.get("/api/games").get_json()["games"] == []  # no guess changed anything


def test_the_right_pin_is_not_counted(app: Flask, api: Api) -> None:
    with_pin(api)
    phone = Api(app.test_client())
    codes = [phone.post("/api/unlock", {"pin": "0000"}).status_code for _ in range(4)]
    codes.append(phone.post("/api/unlock", {"pin": "9753"}).status_code)
    codes += [phone.post("/api/unlock", {"pin": "0000"}).status_code for _ in range(2)]
    assert codes == [403] * 4 + [200, 403, 429]


def test_unlocking_a_table_without_a_pin_says_so_and_counts_nothing(app: Flask, api: Api) -> None:
    for choice in ("unset", "none"):
        if choice == "none":
            assert api.post("/api/pin", {"pin": None}).status_code == 200
        phone = Api(app.test_client())
        for _ in range(MAX_PIN_FAILURES + 3):
            response = phone.post("/api/unlock", {"pin": "1234"})
            assert response.status_code == 200, response.get_json()
            body = response.get_json()
            assert body["unlocked"] is True and "no PIN" in body["message"]
        assert phone.post("/api/games", {"players": ["A", "B"]}).status_code == 201
    # none of those unlocks was a guess: with a PIN set, all five guesses are still there
    with_pin(api)
    phone = Api(app.test_client())
    codes = [phone.post("/api/unlock", {"pin": "0000"}).status_code for _ in range(6)]
    assert codes == [403] * 5 + [429]
