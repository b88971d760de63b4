"""The page in real Chromium (Debian's ``chromium``, driven by Playwright) against ``crib serve``
running on waitress in a subprocess: start a game, play a deal by tapping, correct a card, call
muggins, watch the board move, upload a photo, fall back to polling.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import TIMEOUT, chromium_path, start_server, stop_server
from PIL import Image

pytestmark = pytest.mark.browser

CHROMIUM = chromium_path()
if CHROMIUM is None:
    pytest.skip(
        "browser tests skipped: Chromium not found (apt-get install -y chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests skipped: pip install playwright"
)
expect = sync_api.expect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    proc, url = start_server(tmp_path_factory.mktemp("browser"), "--leds", "sim")
    yield url
    stop_server(proc)


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda req: None if req.url.startswith((server, "data:", "blob:"))
            else outside.append(req.url))
    page.goto(server)
    yield page
    context.close()
    assert errors == [], errors
    assert outside == [], outside


def new_game(page: Any, *, claim: bool = False, muggins: bool = False,
             names: tuple[str, ...] = ("Alice", "Bob"), variant: str = "") -> None:
    page.click("#tabs >> text=New")
    if variant:
        page.select_option('#new-form select[name="variant"]', variant)
    inputs = page.locator('#players input[name="player"]')
    for i, name in enumerate(names):
        inputs.nth(i).fill(name)
    if claim:
        page.select_option('#new-form select[name="counting"]', "claim")
    if muggins:
        page.check('#new-form input[name="muggins"]')
    page.click("#new-form button.primary")
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#next")).to_contain_text("choose the dealer")


def tap(page: Any, action: str | None = None, seat: str | None = None,
        cards: tuple[str, ...] = (), claim: int | None = None) -> None:
    """Record one event the way a player does: who, what, the cards, Send."""
    if seat:
        page.click(f'#seat-pick button[data-seat="{seat}"]')
    if action:
        page.click(f'#actions button[data-act="{action}"]')
    for card in cards:
        page.click(f'#picker button[data-card="{card}"]')
    if claim is not None:
        page.fill("#claim", str(claim))
    before = page.evaluate("Crib.app.lastJson")
    page.click("#send")
    page.wait_for_function(
        "(before) => Crib.app.lastJson !== before || document.querySelector('#toast.bad:not([hidden])')",
        arg=before,
    )
    refused = page.locator("#toast.bad:not([hidden])")
    assert refused.count() == 0, f"{action} {seat} {cards}: {refused.text_content()}"


def score(page: Any, side: str) -> Any:
    return page.locator(f'#scores .score[data-side="{side}"] .pts')


def send_events(page: Any, events: list[dict[str, Any]]) -> None:
    """Set up a position through the page's own API calls (not what the test is about)."""
    page.evaluate(
        """async (events) => {
             for (const e of events) {
               const r = await Crib.api("POST", `/api/games/${Crib.app.gameId}/events`, e);
               Crib.render(r.state);
             }
           }""",
        events,
    )


PLAY = [
    ("play", "A", ("JC",)), ("play", "B", ("5S",)), ("play", "A", ("5H",)),
    ("play", "B", ("TD",)), ("go", "A", ()), ("play", "A", ("4H",)), ("play", "B", ("9C",)),
    ("play", "A", ("6D",)), ("play", "B", ("9H",)),
]


def test_start_a_game_and_play_a_deal_by_tapping(page: Any) -> None:
    new_game(page)
    tap(page, "dealer", "B")
    expect(page.locator("#next")).to_contain_text("turn the starter")
    # the page picks the next action and seat itself: starter, then whoever is to play
    tap(page, cards=("5D",))
    for action, seat, cards in PLAY:
        tap(page, action if action == "go" else None, seat, cards)
    expect(page.locator("#next")).to_contain_text("Alice counts")
    tap(page, cards=("JC", "5H", "4H", "6D"))
    tap(page, cards=("5S", "TD", "9C", "9H"))
    expect(page.locator("#next")).to_contain_text("Bob's crib")
    tap(page, cards=("2C", "3S", "QH", "KS"))
    page.click("#tabs >> text=Table")
    expect(score(page, "A")).to_have_text("18")
    expect(score(page, "B")).to_have_text("20")
    expect(page.locator("#spoken")).to_have_text(re.compile(r"^Bob's crib: fifteen two, fifteen four"))
    expect(page.locator("#dealer")).to_have_text("Alice")  # the next deal
    assert peg_hole(page, "A", "front") == hole_xy(page, 0, 18)
    assert peg_hole(page, "A", "back") == hole_xy(page, 0, 2)
    assert peg_hole(page, "B", "front") == hole_xy(page, 1, 20)


def peg_hole(page: Any, seat: str, which: str) -> tuple[str, str]:
    peg = page.locator(f"#peg-{seat}-{which}")
    return peg.get_attribute("cx"), peg.get_attribute("cy")


def hole_xy(page: Any, track: int, hole: int) -> tuple[str, str]:
    h = page.locator(f"#h{track}-{hole}")
    return h.get_attribute("cx"), h.get_attribute("cy")


def test_correct_a_card(page: Any) -> None:
    new_game(page)
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"},
                       {"type": "play", "seat": "A", "card": "JC"},
                       {"type": "play", "seat": "B", "card": "5S"}])
    expect(score(page, "B")).to_have_text("2")
    page.click("#tabs >> text=Fix")
    row = page.locator('#events li[data-event="4"]')
    expect(row).to_contain_text("Bob laid 5♠")
    row.locator("button.edit").click()
    page.fill("#edit-cards", "JC")
    expect(page.locator("#edit-preview")).to_contain_text("J♣")  # already played: refused
    page.click('#edit-picker button[data-card="6S"]')  # the dialog's picker
    expect(page.locator("#edit-preview")).to_have_text("This changes: Bob 2 → 0")
    assert page.evaluate("Crib.app.state.scores.B") == 2  # nothing recorded yet
    page.click("#edit-form button.primary")
    expect(page.locator("#changed")).to_have_text("Corrected #4: Bob 2 → 0")
    expect(page.locator('#events li[data-event="4"]')).to_have_class(re.compile("gone"))
    expect(page.locator('#events li[data-event="5"]')).to_contain_text("Correction of #4: Bob laid 6♠")
    page.click("#tabs >> text=Table")
    expect(score(page, "B")).to_have_text("0")


def test_call_muggins(page: Any) -> None:
    new_game(page, claim=True, muggins=True)
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"}]
                + [{"type": a, "seat": s, **({"card": c[0]} if c else {})} for a, s, c in PLAY])
    expect(page.locator("#next")).to_contain_text("Alice counts")
    expect(page.locator("#claim-row")).to_be_visible()
    tap(page, cards=("JC", "5H", "4H", "6D"), claim=10)  # it counts 16: 6 missed
    page.click("#tabs >> text=Table")
    box = page.locator("#muggins")
    expect(box).to_contain_text("Alice claimed 10 for the hand")  # what was missed: only later
    expect(box).not_to_contain_text("16")
    expect(score(page, "A")).to_have_text("12")
    box.locator('button[data-muggins="B"]').click()
    expect(score(page, "B")).to_have_text("10")
    expect(box).to_be_hidden()
    expect(page.locator("#spoken")).to_contain_text("Bob: muggins! for six")


def test_watch_the_board_move_from_another_phone(page: Any, browser: Any, server: str) -> None:
    new_game(page, names=("Carol", "Dave"))
    page.click("#tabs >> text=Table")
    expect(page.locator("#live")).to_have_text("live")
    other = browser.new_context().new_page()
    other.goto(server)
    other.wait_for_function("() => Crib.app.gameId !== null")  # a function: the page's CSP refuses eval
    events = [{"type": "dealer", "seat": "A"}, {"type": "starter", "card": "JH"}]
    other.evaluate(
        """async (events) => { for (const e of events)
             await Crib.api("POST", `/api/games/${Crib.app.gameId}/events`, e); }""",
        events,
    )
    # heels: the dealer (Carol) pegs two; the first phone sees it without a reload
    expect(score(page, "A")).to_have_text("2")
    expect(page.locator("#spoken")).to_have_text("Carol: his heels for two")
    page.wait_for_function(
        "() => document.querySelector('#peg-A-front').getAttribute('cx') === "
        "document.querySelector('#h0-2').getAttribute('cx')"
    )
    expect(page.locator("#leds")).to_have_attribute("src", re.compile(r"/api/leds\.png"))
    other.context.close()


def test_the_page_polls_when_live_updates_fail(page: Any, browser: Any, server: str) -> None:
    new_game(page, names=("Gina", "Hal"))
    context = browser.new_context()
    polling = context.new_page()
    polling.route("**/api/stream*", lambda route: route.abort())
    polling.goto(server)
    expect(polling.locator("#live")).to_have_text("polling")
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "JS"}])
    expect(polling.locator('#scores .score[data-side="B"] .pts')).to_have_text("2")
    context.close()


def photo_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (400, 300), (15, 90, 40)).save(buf, "PNG")
    return buf.getvalue()


def test_upload_a_photo_and_count_the_hand(page: Any, tmp_path: Path) -> None:
    page.click("#tabs >> text=Photo")
    path = tmp_path / "hand.png"
    path.write_bytes(photo_png())
    page.set_input_files("#photo-file", str(path))
    page.click("#photo-form button.primary")
    expect(page.locator("#photo-view img")).to_be_visible()
    expect(page.locator("#photo-msg")).not_to_have_text("Reading…")
    # fix the reading by hand: whatever was read is replaced by the cards tapped
    page.evaluate("Crib.app.photo.slots = []; Crib.renderPhotoCards()")
    for card in ("5C", "5D", "5H", "JS", "5S"):
        page.click(f'#photo-picker button[data-card="{card}"]')
    page.select_option("#photo-starter", "5S")
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("29:")
    expect(page.locator("#photo-result")).to_contain_text("his nobs is twenty-nine")
    # a misread card: tap it, tap the right one, count again
    page.click('#photo-cards .card[data-card="JS"]')
    page.click('#photo-picker button[data-card="JC"]')
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("28:")


def test_the_reader_fills_in_the_hand_and_its_starter(page: Any, tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    from vision.synth.compose import drawn_table

    hand = [("2C", 350, 372, -8), ("3D", 420, 366, -4), ("4H", 490, 360, 0), ("9D", 560, 366, 4)]
    path = tmp_path / "hand.png"
    cv2.imwrite(str(path), drawn_table([*hand, ("5S", 1000, 450, 10)], width=190))
    page.click("#tabs >> text=Photo")
    page.set_input_files("#photo-file", str(path))
    page.click("#photo-form button.primary")
    expect(page.locator("#photo-msg")).to_contain_text("Read 5 cards")
    expect(page.locator("#photo-cards .card[data-card]")).to_have_count(5)
    expect(page.locator("#photo-starter")).to_have_value("5S")  # the card lying apart
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("6:")
    expect(page.locator("#photo-result")).to_contain_text("fifteen two and a run of four is six")


def test_a_spread_hand_with_no_card_apart_counts_each_starter(page: Any, tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    from vision.synth.compose import drawn_table

    spread = [("2C", 350, 372, -8), ("3D", 420, 366, -4), ("4H", 490, 360, 0), ("9D", 560, 366, 4),
              ("KC", 630, 372, 8)]
    path = tmp_path / "spread.png"
    cv2.imwrite(str(path), drawn_table(spread, width=190))
    page.click("#tabs >> text=Photo")
    page.set_input_files("#photo-file", str(path))
    page.click("#photo-form button.primary")
    expect(page.locator("#photo-cards .card[data-card]")).to_have_count(5)
    expect(page.locator("#photo-starter")).to_have_value("")  # not the top card of the spread
    page.click("#photo-count")  # no starter: the count with each of the five as the starter
    expect(page.locator("#photo-result")).to_contain_text("each of the five as the starter")
    expect(page.locator('#photo-result tr[data-points="7"] [data-card]')).to_have_count(5)
    page.select_option("#photo-starter", "KC")
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("7:")  # two fifteens and a run of three


def test_a_counted_photo_goes_into_the_game(page: Any, tmp_path: Path) -> None:
    new_game(page, names=("Ivy", "Jack"))
    send_events(page, [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"}]
                + [{"type": a, "seat": s, **({"card": c[0]} if c else {})} for a, s, c in PLAY])
    page.click("#tabs >> text=Photo")
    path = tmp_path / "ivy.png"
    path.write_bytes(photo_png())
    page.set_input_files("#photo-file", str(path))
    page.click("#photo-form button.primary")
    expect(page.locator("#photo-view img")).to_be_visible()
    page.evaluate("Crib.app.photo.slots = []; Crib.renderPhotoCards()")
    for card in ("JC", "5H", "4H", "6D", "5D"):
        page.click(f'#photo-picker button[data-card="{card}"]')
    page.select_option("#photo-starter", "5D")
    page.click("#photo-count")
    expect(page.locator("#photo-result")).to_contain_text("16:")
    page.click("#photo-record")
    expect(page.locator("#photo-record")).to_have_count(0)
    page.click("#tabs >> text=Table")
    expect(score(page, "A")).to_have_text("18")
    expect(page.locator("#next")).to_have_count(1)
    assert page.evaluate("Crib.app.state.next") == "B"


def test_a_table_pin_set_at_first_start(browser: Any, tmp_path: Path) -> None:
    proc, url = start_server(tmp_path / "pin", "--leds", "none")
    try:
        host = browser.new_context().new_page()
        host.set_default_timeout(TIMEOUT)
        host.goto(url + "#new")
        expect(host.locator("#pin-first")).to_be_visible()
        host.fill('#pin-first input[name="pin"]', "2468")
        host.click("#pin-first button.primary")
        expect(host.locator("#pin-first")).to_be_hidden()
        new_game(host, names=("Kim", "Lee"))
        tap(host, "dealer", "A")  # the phone that set the PIN stays unlocked

        guest = browser.new_context().new_page()
        guest.set_default_timeout(TIMEOUT)
        guest.goto(url + "#play")
        expect(guest.locator("#lock-btn")).to_be_visible()
        expect(guest.locator("#dealer")).to_have_text("Kim")  # reading is open
        guest.click('#picker button[data-card="5D"]')
        guest.click("#send")
        expect(guest.locator("#toast")).to_contain_text("PIN")
        expect(guest.locator("#unlock")).to_be_visible()
        guest.fill('#unlock input[name="pin"]', "2468")
        guest.click("#unlock button")
        expect(guest.locator("#lock-btn")).to_be_hidden()
        guest.click("#send")
        expect(guest.locator("#starter")).to_have_text("5♦")
    finally:
        stop_server(proc)


def test_the_cards_read_are_drawn_on_the_photo(page: Any, tmp_path: Path) -> None:
    pytest.importorskip("vision.reader", reason="the card reader is not installed")
    synth = pytest.importorskip("vision.synth.scene")
    import cv2
    import numpy as np

    # held-out decks from the artwork packages when installed, else ones drawn with OpenCV alone
    scene = synth.render_scene(np.random.default_rng(11), layout="single", decks=synth.default_decks("val"))
    path = tmp_path / "scene.jpg"
    cv2.imwrite(str(path), scene.image)
    page.click("#tabs >> text=Photo")
    page.set_input_files("#photo-file", str(path))
    with page.expect_response("**/api/photos") as answer:
        page.click("#photo-form button.primary")
    reading = answer.value.json()["reading"]
    if not reading or not reading["cards"]:
        pytest.skip("the card reader read no card in the rendered photo")
    cards = reading["cards"]
    expect(page.locator("#photo-view svg text")).to_have_count(len(cards))
    expect(page.locator("#photo-view svg polygon")).to_have_count(
        sum(1 for c in cards if c["quad"] is not None))
    expect(page.locator("#photo-view svg circle.unreadable")).to_have_count(
        len(reading["unreadable"]))
    shown = page.locator("#photo-cards .card[data-card]:not(.empty)").evaluate_all(
        "(els) => els.map((e) => e.dataset.card).filter(Boolean)")
    # in photo order, left to right as they lie (issue 45: they were listed in reverse)
    assert shown == [c["card"] for c in sorted(cards, key=lambda c: c["center"][0])]
    if len(cards) < 6:  # a card tapped in: the words say the cards there are, not those read
        page.click("#photo-cards .card.empty")
        extra = next(k for k in ("AS", "2S", "3S") if k not in shown)
        page.click(f'#photo-picker button[data-card="{extra}"]')
        expect(page.locator("#photo-msg")).to_have_text(re.compile(
            rf"^{len(cards) + 1} cards \({len(cards)} read, 1 added\)"))
