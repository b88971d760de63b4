"""The page in Chromium at a phone's size (390x844), speaking as players do: names, not seat
letters; the badge beside a name never hides it; the winner at the top; counting a hand says
what Send does; a refused Send keeps its cards for that action only; muggins keeps what was
missed to itself while the window is open; the history lists sides in seat order; the New form
says who partners whom, with the seats, sides and colours the server's settings give; and no
text overlaps another, every tap target at least 40 px, at 320, 390 and 768 px wide.

Skipped, with the reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import open_page
from test_web_browser import TIMEOUT, expect, new_game, send_events

pytestmark = pytest.mark.browser

PLAY = [
    ("play", "A", "JC"), ("play", "B", "5S"), ("play", "A", "5H"), ("play", "B", "TD"),
    ("go", "A", None), ("play", "A", "4H"), ("play", "B", "9C"), ("play", "A", "6D"),
    ("play", "B", "9H"),
]
TO_THE_SHOW = [{"type": "dealer", "seat": "B"}, {"type": "starter", "card": "5D"}] + [
    {"type": a, "seat": s, **({"card": c} if c else {})} for a, s, c in PLAY
]




def box(locator: Any) -> dict[str, float]:
    b = locator.bounding_box()
    assert b is not None
    return b


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] - 1 and b["x"] < a["x"] + a["width"] - 1
            and a["y"] < b["y"] + b["height"] - 1 and b["y"] < a["y"] + a["height"] - 1)


# --- 1. names, not letters -----------------------------------------------------------------


def test_changes_and_refusals_name_the_players(page: Any) -> None:
    new_game(page, names=("Ann", "Bob", "Cat", "Dan"), variant="four-player")
    page.click('#seat-pick button[data-seat="A"]')
    page.click('#actions button[data-act="dealer"]')
    page.click("#send")
    expect(page.locator("#next")).to_contain_text("turn the starter")
    page.click('#picker button[data-card="JD"]')  # his heels: the dealer's side pegs two
    page.click("#send")
    expect(page.locator("#toast")).to_have_text("Recorded: Ann & Cat 0 → 2")
    page.click('#actions button[data-act="show"]')  # counting now is refused, in words
    page.click("#send")
    toast = page.locator("#toast.bad")
    expect(toast).to_have_text("Hands are counted after the play.")
    page.click('#seat-pick button[data-seat="C"]')
    page.click('#actions button[data-act="go"]')
    page.click("#send")
    expect(toast).to_contain_text("Cat cannot")
    assert "phase" not in toast.text_content()


# --- 2. the badge never covers the name --------------------------------------------------------


@pytest.mark.parametrize(("names", "variant"), [
    (("Hal", "Bob", "Jo", "Dan"), "four-player"), (("Alexandra", "Bartholomew"), ""),
])
def test_the_dealer_badge_leaves_the_name_readable(page: Any, names: tuple[str, ...],
                                                   variant: str) -> None:
    new_game(page, names=names, variant=variant)
    send_events(page, [{"type": "dealer", "seat": "A"}, {"type": "starter", "card": "5D"}])
    page.click("#tabs >> text=Table")
    cards = page.locator("#scores .score")
    expect(cards.locator(".tag")).to_have_count(2)  # dealer on one side, to play on the other
    for i in range(cards.count()):
        card = cards.nth(i)
        name, tag = card.locator(".name"), card.locator(".tag")
        assert not overlap(box(name), box(tag)), name.text_content()
        assert name.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1")
        inside = box(card)
        for part in (box(name), box(tag)):
            assert part["x"] >= inside["x"] - 1
            assert part["x"] + part["width"] <= inside["x"] + inside["width"] + 1
    expect(cards.nth(0).locator(".name")).to_have_text(
        "Hal & Jo" if variant else "Alexandra")


# --- 3. the winner at the top ------------------------------------------------------------------


def test_the_winner_shows_at_the_top(page: Any) -> None:
    new_game(page, names=("Mo", "Ned"))
    send_events(page, [{"type": "dealer", "seat": "B"},
                       {"type": "adjust", "seat": "A", "points": 121, "reason": "test"}])
    page.click("#tabs >> text=Table")
    winner = page.locator("#winner")
    expect(winner.locator(".says")).to_have_text("Mo wins (double skunk)")
    expect(winner.get_by_role("button", name="Rematch")).to_be_visible()
    assert box(winner)["y"] < box(page.locator("#scores"))["y"]
    assert box(winner)["y"] < 844  # on screen without scrolling
    expect(page.locator("#phase")).to_have_text("Game over")


# --- 4. counting a hand says what Send does -----------------------------------------------------


def test_counting_a_hand_says_send_counts_the_cards_laid(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    send_events(page, TO_THE_SHOW)
    page.click("#tabs >> text=Play")
    expect(page.locator("#next")).to_have_text(
        "Next: Ann counts the hand: the four cards Ann laid, with the starter. "
        "Send to count them, or pick the cards if they differ.")
    for card in ("JC", "5H", "4H", "6D"):  # her cards are not greyed out
        expect(page.locator(f'#picker button[data-card="{card}"]')).not_to_have_class(
            "pick  seen")
        assert "seen" not in page.get_attribute(f'#picker button[data-card="{card}"]', "class")
    assert "seen" in page.get_attribute('#picker button[data-card="5S"]', "class")  # Bob's
    page.click("#send")
    expect(page.locator('#scores .score[data-side="A"] .pts')).to_have_text("18")


# --- 5. a refused Send keeps its cards for that action only -------------------------------------


def test_a_refused_send_keeps_its_cards_for_the_same_action_only(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    send_events(page, TO_THE_SHOW[:2])  # Ann leads
    page.click('#seat-pick button[data-seat="B"]')
    page.click('#picker button[data-card="7C"]')
    page.click("#send")
    expect(page.locator("#toast.bad")).to_contain_text("out of turn")
    assert page.evaluate("Crib.app.picked") == ["7C"]
    expect(page.locator("#picked")).to_contain_text("Still picked")
    # retry the same action: the card is still picked; choose the right seat and Send
    page.click('#seat-pick button[data-seat="A"]')
    assert page.evaluate("Crib.app.picked") == ["7C"]
    page.click("#send")
    expect(page.locator("#series")).to_contain_text("7♣")
    expect(page.locator("#picked .card")).to_have_count(0)  # sent: nothing picked any more
    # refused again, then another action: its cards do not leak into it
    page.click('#seat-pick button[data-seat="A"]')
    page.click('#picker button[data-card="8C"]')
    page.click("#send")
    expect(page.locator("#picked")).to_contain_text("Still picked")
    assert page.evaluate("Crib.app.picked") == ["8C"]
    page.click('#actions button[data-act="go"]')
    assert page.evaluate("Crib.app.picked") == []
    page.click('#actions button[data-act="play"]')
    assert page.evaluate("Crib.app.picked") == []
    expect(page.locator("#picked .card")).to_have_count(0)


# --- 6. claims and muggins ---------------------------------------------------------------------


def test_no_claim_box_with_automatic_counting(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    send_events(page, TO_THE_SHOW)
    page.click("#tabs >> text=Play")
    expect(page.locator("#next")).to_contain_text("Ann counts")
    expect(page.locator("#claim-row")).to_be_hidden()


def test_muggins_selects_claims_and_the_form_says_so(page: Any) -> None:
    page.click("#tabs >> text=New")
    form = page.locator("#new-form")
    expect(form).to_contain_text("Muggins works only when hands are counted by claims")
    page.check('#new-form input[name="muggins"]')
    expect(page.locator('#new-form select[name="counting"]')).to_have_value("claim")
    page.select_option('#new-form select[name="counting"]', "auto")
    expect(page.locator('#new-form input[name="muggins"]')).not_to_be_checked()


def test_muggins_keeps_what_was_missed_until_the_window_closes(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"), claim=True, muggins=True)
    send_events(page, TO_THE_SHOW)
    page.click("#tabs >> text=Play")
    page.fill("#claim", "10")  # it counts 16
    page.click("#send")
    page.click("#tabs >> text=Table")
    chance = page.locator("#muggins")
    expect(chance).to_contain_text("Ann claimed 10 for the hand")
    for secret in ("16", "6 missed", "fifteen", "run", "pair"):
        assert secret not in chance.text_content()
    expect(page.locator("#missed")).to_be_hidden()
    expect(page.locator("#spoken")).not_to_contain_text("16")
    chance.locator('button[data-muggins="B"]').click()
    expect(chance).to_be_hidden()
    expect(page.locator("#missed")).to_have_text("Ann's hand: 6 missed (claimed 10 of 16)")
    expect(page.locator("#spoken")).to_have_text("Bob: muggins! for six (Ann claimed 10 of 16)")


# --- 7. history ----------------------------------------------------------------------------


def test_history_lists_sides_in_seat_order_and_the_newest_is_not_old(page: Any) -> None:
    new_game(page, names=("Alice", "Bob"))
    send_events(page, [{"type": "adjust", "seat": "A", "points": 25, "reason": "t"},
                       {"type": "adjust", "seat": "B", "points": 29, "reason": "t"}])
    first = page.evaluate("Crib.app.gameId")
    new_game(page, names=("Ann", "Bob", "Cat", "Dan"), variant="four-player")
    newest = page.evaluate("Crib.app.gameId")
    page.click("#tabs >> text=History")
    old = page.locator(f'#games li[data-game="{first}"]')
    expect(old).to_contain_text("Alice v Bob")
    expect(old).to_contain_text("25–29")
    row = page.locator(f'#games li[data-game="{newest}"]')
    expect(row).to_contain_text("Ann & Cat v Bob & Dan")
    row.locator("text=View").click()
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#viewing")).to_be_hidden()
    assert page.evaluate("Crib.app.follow") is True
    page.click("#tabs >> text=History")
    old.locator("text=View").click()
    expect(page.locator("#viewing")).to_contain_text("not the latest")


# --- 8. partners --------------------------------------------------------------------------------


def test_the_four_player_form_says_who_partners_whom(page: Any) -> None:
    page.click("#tabs >> text=New")
    expect(page.locator("#partners")).to_be_hidden()
    page.select_option('#new-form select[name="variant"]', "four-player")
    inputs = page.locator('#players input[name="player"]')
    for i, name in enumerate(("Ann", "Bob", "Cat", "Dan")):
        inputs.nth(i).fill(name)
    expect(page.locator("#partners")).to_have_text("Partners: Ann & Cat v Bob & Dan")
    inputs.nth(2).fill("Cy")
    expect(page.locator("#partners")).to_have_text("Partners: Ann & Cy v Bob & Dan")


def _new_form_shows(page: Any, variant: str, seats: list[str], colours: list[str], target: int) -> None:
    page.select_option('#new-form select[name="variant"]', variant)
    labels = page.locator("#players label")
    expect(labels).to_have_count(len(seats))
    for i in range(len(seats)):  # by place at the table, never a seat letter
        expect(labels.nth(i)).to_have_text(f"Player {i + 1}")
    swatches = page.locator('#players input[name="colour"]')
    expect(swatches).to_have_count(len(colours))
    for i, colour in enumerate(colours):
        expect(swatches.nth(i)).to_have_value(colour)
    expect(page.locator('#new-form select[name="target"]')).to_have_value(str(target))


def test_the_new_form_sets_up_the_engines_variants(page: Any) -> None:
    from cribbage.game.settings import COLOURS, VARIANTS

    page.click("#tabs >> text=New")
    for name, variant in VARIANTS.items():
        seats = [chr(65 + i) for i in range(variant.seats)]
        _new_form_shows(page, name, seats, list(COLOURS[: len(variant.sides)]), variant.target)


def test_the_new_form_follows_the_served_settings(browser: Any, server: str) -> None:
    """Seats, sides, colours and target come from ``GET /api/session``, not from the page."""
    import json

    colours = ["#112233", "#445566", "#778899", "#aabbcc"]

    def serve(route: Any) -> None:
        session = route.fetch().json()
        session["colours"] = colours
        session["names"] = ["Uma", "Vic", "Wyn", "Zed"]
        session["variants"]["six-card"] = {
            "seats": ["A", "B", "C"], "partners": False, "kept": 4, "target": 61,
            "sides": [{"id": s, "seats": [s]} for s in "ABC"],
        }
        route.fulfill(status=200, content_type="application/json", body=json.dumps(session))

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route("**/api/session", serve)
    page.goto(server + "#new")
    _new_form_shows(page, "three-player", ["A", "B", "C"], colours[:3], 121)
    _new_form_shows(page, "six-card", ["A", "B", "C"], colours[:3], 61)
    _new_form_shows(page, "four-player", ["A", "B", "C", "D"], colours[:2], 121)
    # the names are the served ones too (issue 45: the page had its own, Alice and Bob)
    expect(page.locator("#partners")).to_have_text("Partners: Uma & Wyn v Vic & Zed")
    context.close()
    assert errors == [], errors


# --- 9. a count of nothing is said ---------------------------------------------------------------


def test_a_crib_of_nothing_replaces_the_words_before(page: Any) -> None:
    new_game(page, names=("Ann", "Bob"))
    events = [dict(e) for e in TO_THE_SHOW]
    events[1] = {"type": "starter", "card": "KD"}  # no crib of four scores nothing with a five
    send_events(page, [
        *events,
        {"type": "show", "seat": "A", "cards": ["JC", "5H", "4H", "6D"]},
        {"type": "show", "seat": "B", "cards": ["5S", "TD", "9C", "9H"]},
    ])
    page.click("#tabs >> text=Table")
    expect(page.locator("#spoken")).to_contain_text("Bob: ")
    send_events(page, [{"type": "crib", "cards": ["AS", "2S", "6S", "TS"]}])
    expect(page.locator("#spoken")).to_have_text("Bob's crib: nineteen (no points)")


# --- layout: no text over other text, tap targets at least 40 px ------------------------------

LAYOUT = """() => {
  const visible = (e) => {
    const r = e.getBoundingClientRect(), st = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && st.visibility !== "hidden" && st.display !== "none"
      && !e.closest("[hidden], svg, #toast, dialog:not([open])");
  };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\\s+/).join(".") : "")
    + ` "${e.textContent.trim().slice(0, 30)}"`;
  // each line box of each piece of text (a text wrapped over two lines is two boxes, not the
  // rectangle around both)
  const textBoxes = [];
  for (const e of Array.from(document.querySelectorAll("body *")).filter(visible)) {
    for (const n of e.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) textBoxes.push({ e, r });
    }
  }
  // every element that can be seen: text must not lie over any of them (a control, a card, a box)
  const controls = Array.from(document.querySelectorAll(
    "button, a[href], select, input:not([type=hidden]), summary, [onclick], .card, .tag, img"))
    .filter(visible).map((e) => ({ e, r: e.getBoundingClientRect() }));
  const overlaps = [];
  const hit = (a, b) => Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left) > 1
    && Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top) > 1;
  for (let i = 0; i < textBoxes.length; i++) {
    const a = textBoxes[i];
    for (let j = i + 1; j < textBoxes.length; j++) {
      const b = textBoxes[j];
      if (a.e === b.e) continue;
      if (hit(a, b)) overlaps.push(`${name(a.e)} over ${name(b.e)}`);
    }
    for (const c of controls) {
      if (c.e.contains(a.e)) continue;  // its own label
      if (hit(a, c)) overlaps.push(`${name(a.e)} over ${name(c.e)}`);
    }
  }
  const small = [];
  const targets = "button, a[href], select, input:not([type=hidden]), summary, [onclick]";
  for (const e of document.querySelectorAll(targets)) {
    if (!visible(e)) continue;
    // a text link inside a sentence is sized by its text ("No game yet. Start one.")
    if (e.matches("p a, .panel > a, .hint a")) continue;
    const r = e.getBoundingClientRect();
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (r.height < 40 || r.width < 40) small.push(`${name(e)} ${size}`);
  }
  const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  return { overlaps, small, wide };
}"""


@pytest.mark.parametrize("width", [320, 390, 768])
def test_no_text_overlaps_and_tap_targets_are_big_enough(browser: Any, server: str,
                                                         width: int) -> None:
    page = open_page(browser, server, width=width)
    try:
        new_game(page, names=("Alexandra", "Bartholomew"))
        send_events(page, TO_THE_SHOW[:5])  # mid-play: dealer, starter, count, series, words
        page.evaluate("document.querySelector('#toast').hidden = true")
        for tab in ("Table", "Play"):
            page.click(f"#tabs >> text={tab}")
            page.evaluate("window.scrollTo(0, 0); document.querySelector('#toast').hidden = true")
            got = page.evaluate(LAYOUT)
            assert got["overlaps"] == [], (width, tab, got["overlaps"])
            assert got["small"] == [], (width, tab, got["small"])
            assert not got["wide"], (width, tab, "the page scrolls sideways")
        assert page.errors == []
    finally:
        page.context.close()
