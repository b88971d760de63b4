"""The JSON API under ``/api``: everything the page does, documented in ``web/openapi.yaml``.

Reading is open. Every ``POST`` needs the session's CSRF token (``GET /api/session`` gives it, send
it back as ``X-CSRF-Token``), from another device the table code once (:mod:`web.tablecode`)
and, when a table PIN is set, an unlocked session (``POST /api/unlock``) or an ``X-Table-Pin``
header (:mod:`web.security`).
"""

from __future__ import annotations

import json
import logging
import tempfile
import time
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file, session

from cribbage.cards import RANKS, SUIT_SYMBOLS, SUITS, parse_card, parse_cards
from cribbage.errors import CribbageError, RuleError
from cribbage.game.settings import COLOURS, PLAYER_NAMES, VARIANTS
from cribbage.storage import file_error
from web import WebContext
from web.board import board_svg
from web.bodies import body_object
from web.chart import score_chart
from web.errors import ApiError
from web.eventwords import event_words, undone_event, with_words
from web.history import game_summary, match_tally, score_series
from web.hub import HubFull
from web.ports import PhotoUnreadable, VisionUnavailable
from web.readers import ReadersBusy
from web.security import check_pin_format, new_csrf_token, same_token
from web.sent import new_device_id
from web.tablecode import CODE_AND_PIN_NEEDED, CODE_NEEDED, admitted, counted_guess
from web.uploads import UploadError, check_image, photo_path, prune_photos, store_photo
from web.words import enrich, refusal_words

bp = Blueprint("api", __name__, url_prefix="/api")
log = logging.getLogger("web")

CHANGES_NOTHING = {"api.count", "api.count_each_starter", "api.discard"}
"""``POST`` endpoints that only work something out: the CSRF token, but no code and no PIN."""
CODE_FREE = CHANGES_NOTHING | {"api.lock", "tablecode.enter_code"}
"""Endpoints another device may use before it has the table code. Unlocking is not one: the
PIN is a second key for a device the code admitted, never a way in by itself."""
PIN_FREE = CODE_FREE | {"api.set_pin", "api.unlock", "api.preview_event"}
"""Endpoints that need the CSRF token and the code but not the PIN (``set_pin`` and ``unlock``
check it themselves; a preview records nothing, yet reads a game's whole log, so it needs the
code like a change)."""


def ctx() -> WebContext:
    return current_app.extensions["crib"]  # type: ignore[no-any-return]


def _kept_in_session(key: str, make: Callable[[], str]) -> str:
    """The session's ``key``, made by ``make`` on first use and kept in its cookie."""
    value = session.get(key)
    if not isinstance(value, str):
        value = make()
        session[key] = value
    return value


def csrf_token() -> str:
    """The session's CSRF token, made on first use."""
    return _kept_in_session("csrf", new_csrf_token)


def unlocked() -> bool:
    settings = ctx().settings
    if settings.pin_state != "set":
        return True
    return session.get("unlocked") == settings.pin_version


@bp.before_app_request
def guard() -> None:
    """CSRF on every state-changing request, then the table code from another device, then the
    PIN where one is set. The first PIN too needs the code: only the table's players choose it."""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.routing_exception is not None:
        return  # reading, or a 404/405 that changes nothing
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
    if not same_token(sent, session.get("csrf")):
        raise ApiError(403, "missing or stale CSRF token: reload the page", need="csrf")
    if request.endpoint not in CODE_FREE and not admitted():
        if ctx().settings.pin_state == "set":
            raise ApiError(403, CODE_AND_PIN_NEEDED, need="code", pin=True)
        raise ApiError(403, CODE_NEEDED, need="code")
    if request.endpoint in PIN_FREE or unlocked():
        return
    header_pin = request.headers.get("X-Table-Pin")
    if header_pin is not None:
        check_pin_or_refuse(header_pin)
        return
    raise ApiError(403, "this table has a PIN: unlock to change anything", need="pin")


def check_pin_or_refuse(pin: object) -> None:
    """Compare ``pin`` with the table's, the attempt counted first (5 a minute per address, and
    a slow bucket for every device together: :data:`web.security.PIN_REFILL_S`)."""
    c = ctx()
    counted_guess(c.pin_tries, lambda: bool(c.settings.check_pin(pin)),
                  too_many="too many wrong PINs: try again in {wait} s, or set a new PIN on the "
                           "Pi with crib serve --pin",
                  wrong="wrong PIN", need="pin")


MAX_GAME_ID = 2**63 - 1  # SQLite's largest integer


def game_or_404(game_id: int) -> dict[str, Any]:
    if not 0 < game_id <= MAX_GAME_ID:
        raise ApiError(404, f"no game {game_id}")
    table = ctx().table
    try:
        return table.state(game_id)
    except (KeyError, LookupError, CribbageError) as exc:
        raise ApiError(404, f"no game {game_id}") from exc


@bp.errorhandler(RuleError)
def rule_refused(exc: RuleError) -> tuple[Response, int]:
    """A move the rules refuse: 422, said in players' words (names, not seat letters); the
    rule's name in ``rule`` and the engine's own message in ``detail``, for programs."""
    state = None
    game_id = (request.view_args or {}).get("game_id")
    if isinstance(game_id, int):
        try:
            state = ctx().table.state(game_id)
        except (KeyError, LookupError, CribbageError):
            state = None
    message = str(exc)
    try:
        words = refusal_words(message, state, exc.rule)
    except (TypeError, ValueError, KeyError):
        words = message
    body = {"error": words, "status": 422, "rule": exc.rule, "detail": message}
    return jsonify(body), 422


# --- session, PIN -------------------------------------------------------------------------


@bp.get("/session")
def get_session() -> Response:
    c = ctx()
    return jsonify(
        csrf=csrf_token(),
        pin=c.settings.pin_state,
        unlocked=unlocked(),
        companion=c.table.status(),
        live_streams=c.hub.open_streams,
        max_streams=c.hub.max_streams,
        variants={name: variant.to_json() for name, variant in VARIANTS.items()},
        colours=list(COLOURS),
        names=list(PLAYER_NAMES),  # the New tab's names until the players type theirs
        cards={"ranks": RANKS, "suits": SUITS, "symbols": SUIT_SYMBOLS},  # the page's card alphabet
    )


@bp.post("/unlock")
def unlock() -> Response:
    pin = body_object().get("pin")  # a bad body is refused whether or not there is a PIN
    if ctx().settings.pin_state != "set":  # nothing to compare, nothing to count
        return jsonify(unlocked=True, message="this table has no PIN: nothing to unlock")
    check_pin_or_refuse(pin)
    session["unlocked"] = ctx().settings.pin_version
    return jsonify(unlocked=True)


@bp.post("/lock")
def lock() -> Response:
    session.pop("unlocked", None)
    return jsonify(unlocked=unlocked())


@bp.post("/pin")
def set_pin() -> Response:
    """Choose the table PIN: at first start, or later from an unlocked session."""
    settings = ctx().settings
    if settings.pin_state == "set" and not unlocked():
        raise ApiError(403, "unlock with the current PIN to change it", need="pin")
    body = body_object()
    if "pin" not in body:  # a misspelt key must not remove the PIN
        raise ApiError(400, 'send {"pin": "4321"} to set the PIN, or {"pin": null} for no PIN')
    pin = body["pin"]
    if pin is not None and pin != "":
        try:
            check_pin_format(pin)
        except ValueError as exc:
            raise ApiError(400, str(exc)) from exc
    settings.set_pin(pin or None)
    if pin:
        session["unlocked"] = settings.pin_version
    return jsonify(pin=settings.pin_state, unlocked=True)


# --- games --------------------------------------------------------------------------------


@bp.get("/games")
def list_games() -> Response:
    table = ctx().table
    games = [game_summary(g) for g in table.games()]
    return jsonify(games=games, latest=table.latest_game(), tally=match_tally(games))


@bp.post("/games")
def new_game() -> tuple[Response, int]:
    table = ctx().table
    settings = body_object()
    try:
        game_id = table.new_game(settings)
    except (TypeError, AttributeError) as exc:  # a malformed value the settings check missed
        raise ApiError(400, f"settings not understood ({exc})") from exc
    return jsonify(game_id=game_id, state=enrich(table.state(game_id))), 201


@bp.get("/games/latest")
def latest() -> Response:
    game_id = ctx().table.latest_game()
    if game_id is None:
        raise ApiError(404, "no game yet: start one")
    return jsonify(game_id=game_id, state=enrich(ctx().table.state(game_id)))


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> Response:
    return jsonify(game_id=game_id, state=enrich(game_or_404(game_id)))


@bp.get("/games/<int:game_id>/events")
def list_events(game_id: int) -> Response:
    """Every event, each with ``said`` and ``points_said`` in players' words
    (:func:`web.eventwords.with_words`)."""
    state = game_or_404(game_id)
    return jsonify(game_id=game_id, events=with_words(ctx().table.events(game_id), state))


def device_id() -> str:
    """This phone's id, kept in its session cookie (made on first use)."""
    return _kept_in_session("device", new_device_id)


def check_undo(game_id: int, event: dict[str, Any], state: dict[str, Any]) -> dict[str, Any] | None:
    """The event an undo cancels, its number and words (``{"event": 7, "said": "Ann laid
    4♣"}``), once it may: the last event this phone sent, or the one it names in ``expect``.
    Anything else is 409 with the event in words (``undo``: the same), so the page asks first."""
    expect = event.pop("expect", None)
    if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
        raise ApiError(400, '"expect" is the number of the event to undo, like 7')
    target = undone_event(ctx().table.events(game_id))
    if target is None:
        return None  # the engine refuses it: nothing to undo
    said = event_words(target["event"], state)
    about = {"event": target["id"], "said": said}
    if expect is not None and expect != target["id"]:
        raise ApiError(409, f"Not undone: #{target['id']} {said} is newer than the event you meant to undo. "
                            f"Undo #{target['id']}?", undo=about)
    if expect is None and not ctx().sent.sent_by(game_id, device_id(), int(target["id"])):
        raise ApiError(409, f"The last event, #{target['id']} {said}, was not sent from this phone: "
                            "undo it?", undo=about)
    return about


@bp.post("/games/<int:game_id>/events")
def post_event(game_id: int) -> Response:
    """Record an event. An undo says what it undid (``undid``: the event in words) and asks
    first (409) for an event this phone did not send (:func:`check_undo`)."""
    before = game_or_404(game_id)
    event = body_object()
    if not isinstance(event.get("type"), str):
        raise ApiError(400, 'an event needs a "type", like {"type": "go", "seat": "A"}')
    undone = check_undo(game_id, event, before) if event["type"] == "undo" else None
    state = ctx().table.apply(game_id, event, source="page")
    extra: dict[str, Any] = {}
    if undone is not None:
        extra["undid"] = undone
    elif isinstance(state.get("events"), int):
        ctx().sent.record(game_id, device_id(), state["events"])
    return jsonify(game_id=game_id, state=enrich(state), changed=score_changes(before, state), **extra)


@bp.post("/games/<int:game_id>/preview")
def preview_event(game_id: int) -> Response:
    """What an event would change, without recording it (the Fix tab shows it before saving)."""
    before = game_or_404(game_id)
    event = body_object()
    if not isinstance(event.get("type"), str):
        raise ApiError(400, 'an event needs a "type", like {"type": "go", "seat": "A"}')
    state = ctx().table.preview(game_id, event)
    return jsonify(game_id=game_id, state=enrich(state), changed=score_changes(before, state))


@bp.get("/games/<int:game_id>/review")
def review(game_id: int) -> Response:
    """The coach's review of each finished deal whose hands the game knows: per seat what was
    kept, the best choice for its seat and the expected points given away; per player the sum
    (:func:`cribbage.coach.review.review_game`)."""
    from cribbage.coach.review import review_game

    return jsonify(game_id=game_id, **review_game(game_or_404(game_id)))


@bp.get("/games/<int:game_id>/chart.svg")
def chart(game_id: int) -> Response:
    state = game_or_404(game_id)
    series, colours = score_series(state, ctx().table.events(game_id))
    target = int(state.get("target") or state.get("settings", {}).get("target") or 121)
    svg = score_chart(series, target=target, colours=colours)
    return Response(svg, mimetype="image/svg+xml")


def score_changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """Which seats' scores an event changed: ``[{"seat": "A", "from": 10, "to": 12}]``."""
    old, new = before.get("scores") or {}, after.get("scores") or {}
    if not isinstance(old, dict) or not isinstance(new, dict):
        return []
    return [
        {"seat": seat, "from": old.get(seat, 0), "to": new[seat]}
        for seat in new
        if old.get(seat, 0) != new[seat]
    ]


# --- live updates -------------------------------------------------------------------------


@bp.get("/stream")
def stream() -> Response:
    """Server-sent events: ``state`` for the followed game, ``games`` and ``leds``."""
    c = ctx()
    game = request.args.get("game", type=int)
    try:
        sub = c.hub.subscribe()
    except HubFull as exc:
        raise ApiError(503, f"{exc}: this page will poll instead", poll=True) from exc
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    max_age = float(current_app.config["SSE_MAX_AGE"])
    first = None
    if game is not None:
        try:
            first = json.dumps({"game_id": game, "state": enrich(game_or_404(game))})
        except ApiError:
            sub.close()
            raise

    def events() -> Iterator[str]:
        try:
            yield "retry: 1500\n\n"
            if first is not None:
                yield f"event: state\ndata: {first}\n\n"
            deadline = time.monotonic() + max_age
            while not sub.closed and time.monotonic() < deadline:
                item = sub.get(timeout=heartbeat)
                if item is None:
                    yield ": still here\n\n"
                    continue
                topic, data = item
                kind, _, key = topic.partition(":")
                if kind == "state" and game is not None and key != str(game):
                    continue
                yield f"event: {kind}\ndata: {data}\n\n"
        finally:
            sub.close()

    return Response(
        events(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


# --- board and LEDs -----------------------------------------------------------------------


def board_args() -> tuple[int, int]:
    tracks = request.args.get("tracks", "2")
    target = request.args.get("target", "121")
    if tracks not in ("2", "3"):
        raise ApiError(400, "tracks is 2 or 3")
    if target not in ("61", "121"):
        raise ApiError(400, "target is 61 or 121")
    return int(tracks), int(target)


@bp.get("/board")
def board() -> Response:
    """The board layout the LEDs use, as JSON (``?tracks=2&target=121``)."""
    return jsonify(ctx().table.board_layout(*board_args()))


@bp.get("/board.svg")
def board_drawing() -> Response:
    """The board drawn as SVG from that layout, holes ``h{track}-{hole}``, pegs ``peg-{seat}-*``."""
    svg = board_svg(ctx().table.board_layout(*board_args()))
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "max-age=3600"
    return response


@bp.get("/leds.png")
def leds_png() -> Response:
    frame = ctx().table.led_frame_png()
    if frame is None:
        raise ApiError(404, "the LEDs are not simulated on this table")
    response = Response(frame, mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


# --- counting a hand, by photo or by hand -------------------------------------------------


@bp.post("/count")
def count() -> Response:
    """Count a hand: ``{"hand": ["5C", "5D", "5H", "JS"], "starter": "5S", "crib": false}``."""
    data = body_object()
    hand, starter = data.get("hand"), data.get("starter")
    if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
        raise ApiError(400, 'send "hand" as a list of four cards, like ["5C", "5D", "5H", "JS"]')
    if not isinstance(starter, str):
        raise ApiError(400, 'send the "starter" card, like "5S"')
    cards = parse_cards(hand)
    turned = parse_card(starter)
    if turned in cards:
        raise ApiError(400, f"{turned} is both in the hand and the starter")
    from cribbage.show import score_hand

    crib = data.get("crib", False)
    if not isinstance(crib, bool):
        raise ApiError(400, '"crib" is true or false')
    result = score_hand(cards, turned, crib=crib)
    return jsonify(result.to_json())


@bp.post("/count/starters")
def count_each_starter() -> Response:
    """The count with each possible starter, when none is chosen:
    ``{"cards": ["5C", "5D", "5H", "JS"], "crib": false}``. Five cards: each of them as the
    starter of the other four; four (or three): each card of the pack not among them. The
    starters come grouped by their count, best first."""
    from cribbage.show import each_starter, starter_groups

    data = body_object()
    cards = data.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise ApiError(400, 'send "cards" as a list, like ["5C", "5D", "5H", "JS"]')
    crib = data.get("crib", False)
    if not isinstance(crib, bool):
        raise ApiError(400, '"crib" is true or false')
    options = each_starter(parse_cards(cards), crib=crib)
    return jsonify(
        starters_from="cards" if len(cards) == 5 else "pack",
        options=[{"starter": o.starter.name, "total": o.total} for o in options],
        groups=[{"total": total, "starters": names} for total, names in starter_groups(options)],
    )


@bp.post("/discard")
def discard() -> Response:
    """Which cards to lay away: ``{"dealt": [6 cards, or 5], "role": "dealer" | "pone",
    "variant"?: "three-player", "top"?: 5}``. The choices best total first, each as
    ``crib discard --json`` gives it with ``kept_points``, ``kept_items`` and ``why`` in words
    (:mod:`cribbage.coach.why`). Changes nothing, so it needs no PIN."""
    from cribbage.coach import MAX_TOP, ROLES, advise_discards
    from cribbage.coach.why import explain
    from cribbage.game.settings import VARIANTS

    data = body_object()
    dealt, role = data.get("dealt"), data.get("role")
    if not isinstance(dealt, list) or not all(isinstance(c, str) for c in dealt):
        raise ApiError(400, 'send "dealt" as a list of the cards dealt, like ["5H", "5S", "JD", "QC", "2H"]')
    if role not in ROLES:
        raise ApiError(400, '"role" is "dealer" (the crib is yours) or "pone" (it is your opponent\'s)')
    variant = data.get("variant")
    if variant is not None and (not isinstance(variant, str) or variant not in VARIANTS):
        raise ApiError(400, f'"variant" is one of {", ".join(VARIANTS)}')
    top = data.get("top", 5)
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP:
        raise ApiError(400, f'"top" is how many choices to list, 1 to {MAX_TOP}')
    cards = parse_cards(dealt)
    sizes = sorted({v.dealt for v in VARIANTS.values()})
    if len(cards) not in sizes:
        raise ApiError(400, f"{len(cards)} cards: a deal is {' or '.join(map(str, reversed(sizes)))} cards")
    advice = advise_discards(cards, role, variant=variant)
    out = advice.as_dict(0)
    out["options"] = [explain(o, role) for o in advice.options[:top]]
    out["choices"] = len(advice.options)
    return jsonify(out)


@bp.post("/photos")
def upload_photo() -> tuple[Response, int]:
    """Upload a photo of cards (form field ``photo``); read the cards in it if the reader runs.

    Checked from its header and structure first (the pixel budget, whole bytes), then read in
    turn with other uploads (:mod:`web.readers`), and stored only once it could be decoded."""
    c = ctx()
    try:  # a photo over 500 KB is spooled to TMPDIR while the form is read
        file = request.files.get("photo")
    except OSError as exc:
        error = file_error(exc, "the photo", Path(tempfile.gettempdir()))
        if error is None:
            raise
        raise error from None
    if file is None:
        raise ApiError(400, "send the photo as the form field 'photo'")
    data = file.read(int(current_app.config["MAX_CONTENT_LENGTH"]) + 1)
    try:
        info = check_image(data, max_pixels=int(current_app.config["MAX_IMAGE_PIXELS"]))
    except UploadError as exc:
        raise ApiError(exc.status, str(exc)) from exc
    reading: dict[str, Any] | None = None
    message = None
    try:
        reading = c.readers.read(c.table.read_cards, data)
    except PhotoUnreadable as exc:
        raise ApiError(400, f"the photo cannot be read ({exc}): nothing was stored") from exc
    except VisionUnavailable as exc:
        log.warning("card reader unavailable: %s", exc)
        message = "The card reader is not available here: tap the cards in below."
    except CribbageError as exc:
        message = f"No cards could be read ({exc}): tap them in below."
    name = store_photo(c.photo_dir, data, info)
    prune_photos(c.photo_dir, keep=int(current_app.config["KEEP_PHOTOS"]))
    result: dict[str, Any] = {
        "photo": name,
        "url": f"/api/photos/{name}",
        "width": info.width,
        "height": info.height,
        "reading": reading,
    }
    if message is not None:
        result["message"] = message
    return jsonify(result), 201


@bp.errorhandler(ReadersBusy)
def readers_busy(exc: ReadersBusy) -> tuple[Response, int]:
    """Every reader stayed busy: 503, and ``Retry-After`` says when to send the photo again."""
    response = jsonify(error=str(exc), status=503, retry_after=exc.retry_after)
    response.headers["Retry-After"] = str(exc.retry_after)
    return response, 503


@bp.get("/photos/<name>")
def get_photo(name: str) -> Response:
    path = photo_path(ctx().photo_dir, name)
    if path is None:
        raise ApiError(404, "no such photo")
    return send_file(path, max_age=3600)


@bp.get("/openapi.yaml")
def openapi() -> Response:
    text = resources.files("web").joinpath("openapi.yaml").read_text(encoding="utf-8")
    return Response(text, mimetype="application/yaml")
