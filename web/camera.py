"""The camera's routes under ``/api/camera``: its status, the newest frame, the zones, the flagged
readings and their crops (documented in ``web/openapi.yaml``).

The camera is optional: :func:`init_app` looks for the :class:`web.ports.CameraPort` methods on
the table (:func:`web.ports.camera_of`); without them, or while ``camera_status()`` answers
``None``, every route here answers 404 and the page shows no Camera tab. Changes (zones, flagged
readings) need the CSRF token and the PIN like every other change (``web.api.guard``).

The snapshot is asked of the camera at most twice a second whatever the number of phones: a
request within ``CAMERA_SNAPSHOT_S`` (0.5 s) of the last one gets the same bytes.

``GET /api/camera/checks`` is the Set-up step's: ``crib camera check``'s checks on the camera's
last frames (``camera_checks()``, an optional method: a camera without it answers 404). The
camera runs them at most once a second however many phones ask; reading them changes nothing.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify

from cribbage.cards import parse_card
from cribbage.errors import CribbageError, RuleError
from web.bodies import body_object
from web.errors import ApiError
from web.ports import CameraPort, camera_of
from web.words import enrich, name_seats, refusal_words, zones_words

bp = Blueprint("camera", __name__, url_prefix="/api/camera")

NO_CAMERA = "no camera: start crib serve --camera SPEC"
CROP_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,79}\.jpg")
"""A crop's file name: no folder, no leading dot."""
ACTIONS = ("accept", "fix", "dismiss")


@dataclass
class SnapshotCache:
    """The last snapshot and when it was taken, so many phones cost the camera one JPEG."""

    interval: float = 0.5
    taken: float = float("-inf")
    data: bytes | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, camera: CameraPort, now: float | None = None) -> bytes | None:
        now = time.monotonic() if now is None else now
        with self.lock:
            if now - self.taken >= self.interval:
                self.data = camera.camera_snapshot()
                self.taken = now
            return self.data


@dataclass
class CameraContext:
    """``app.extensions["crib_camera"]``: the camera (or None) and the snapshot cache."""

    port: CameraPort | None
    snapshots: SnapshotCache


def init_app(app: Flask, table: object) -> None:
    """Register the camera routes and tell the page template whether there is a camera."""
    app.config.setdefault("CAMERA_SNAPSHOT_S", 0.5)
    app.extensions["crib_camera"] = CameraContext(
        camera_of(table), SnapshotCache(float(app.config["CAMERA_SNAPSHOT_S"]))
    )
    app.register_blueprint(bp)

    @app.context_processor
    def camera_flag() -> dict[str, Any]:
        port = app.extensions["crib_camera"].port
        try:
            on = port is not None and port.camera_status() is not None
        except Exception:  # the page must render even when the camera misbehaves
            on = port is not None
        return {"camera_on": on}


def camera() -> CameraPort:
    """The camera, or a 404 when the table has none."""
    port = current_app.extensions["crib_camera"].port
    if port is None:
        raise ApiError(404, NO_CAMERA)
    return port  # type: ignore[no-any-return]


def status_or_404() -> dict[str, Any]:
    status = camera().camera_status()
    if status is None:
        raise ApiError(404, NO_CAMERA)
    return status


def jpeg(data: bytes, cache: str) -> Response:
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = cache
    return response


@bp.get("")
def get_status() -> Response:
    """The camera's status, open to anyone: the source by its kind and file name, no folders."""
    return jsonify(public_status(status_or_404()))


_FOLDERS = re.compile(r"(?<![\w.])(?:~|\.{1,2})?/(?:[^\s/:'\"]+/)*")


def public_status(status: dict[str, Any]) -> dict[str, Any]:
    """``status`` with the folders of its source and error taken out (the file name stays).

    >>> public_status({"source": "video:/home/pi/crib/demo.mp4", "error": "cannot open /dev/video0"})
    {'source': 'video:demo.mp4', 'error': 'cannot open video0'}
    """
    out = dict(status)
    for key in ("source", "error"):
        if isinstance(out.get(key), str):
            out[key] = _FOLDERS.sub("", out[key])
    return out


@bp.get("/snapshot.jpg")
def snapshot() -> Response:
    status_or_404()
    data = current_app.extensions["crib_camera"].snapshots.get(camera())
    if data is None:
        raise ApiError(404, "no frame from the camera yet")
    return jpeg(data, "no-store")


@bp.get("/checks")
def checks() -> Response:
    """The set-up checks on the camera's last frames, with ``camera`` (its state); 409 while the
    camera is lost or failed, or before its first frame."""
    status = status_or_404()
    ask = getattr(camera(), "camera_checks", None)
    if not callable(ask):
        raise ApiError(404, "this camera has no set-up checks")
    if status.get("state") == "lost":
        raise ApiError(409, f"the camera is lost ({status.get('error') or 'no picture'}): nothing to check")
    if status.get("state") == "failed":
        raise ApiError(409, f"the camera is off ({status.get('error') or 'it failed'}): nothing to check")
    report = ask()
    if report is None:
        raise ApiError(409, "no picture from the camera yet: nothing to check")
    response = jsonify({**report, "camera": status.get("state")})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/zones")
def get_zones() -> Response:
    status_or_404()
    return jsonify(camera().camera_zones())


def game_state(status: dict[str, Any]) -> dict[str, Any] | None:
    """The state of the game the camera feeds (the newest game until its first frame; None
    before a game): its seats and the names the page says."""
    table = current_app.extensions["crib"].table
    game = status.get("game")
    if not isinstance(game, int) or isinstance(game, bool):
        game = table.latest_game()
    if game is None:
        return None
    try:
        return table.state(game)  # type: ignore[no-any-return]
    except CribbageError:
        return None


@bp.put("/zones")
def put_zones() -> Response:
    """Check and save the zones. Zones for another size of table than the game in progress are
    kept for that size (``in_use: false``) and leave the zones in use alone."""
    status = status_or_404()
    zones = body_object()
    try:
        saved = camera().set_camera_zones(zones)
    except CribbageError as exc:
        raise ApiError(400, zones_words(str(exc), game_state(status))) from exc
    except (TypeError, AttributeError) as exc:  # a shape the zones check missed
        raise ApiError(400, f"zones not understood ({exc})") from exc
    return jsonify(saved)


@bp.post("/flagged/<int:flag_id>")
def resolve(flag_id: int) -> Response:
    """Settle a flagged reading: accept it as read, fix its card, or dismiss it; ``seat`` says
    whose card it is (a card in the centre or in no zone)."""
    status = status_or_404()
    data = body_object()
    action = data.get("action")
    if action not in ACTIONS:
        raise ApiError(400, 'send "action": "accept", "fix" or "dismiss"')
    card = None
    if action == "fix":
        if not isinstance(data.get("card"), str):
            raise ApiError(400, 'a fix needs the "card" it really is, like "5C"')
        card = str(parse_card(data["card"]))  # CardError: 400
    seat = data.get("seat")
    if seat is not None:
        players = [p for p in (game_state(status) or {}).get("players") or [] if isinstance(p, dict)]
        seats = [str(p.get("seat")) for p in players]
        if not isinstance(seat, str) or seat not in seats:
            who = ", ".join(f'"{p.get("seat")}" for {p.get("name")}' for p in players)
            raise ApiError(400, f'whose card is it? "seat" is one of the players: {who}' if who else
                           "whose card is it? there is no game to play it in")
    try:
        # the seat only when given: a camera from before seats answers without it
        port = camera()
        state = (port.resolve_flag(flag_id, action, card) if seat is None or action == "dismiss" else
                 port.resolve_flag(flag_id, action, card, seat=seat))
    except KeyError as exc:
        raise ApiError(404, f"no flagged reading {flag_id}") from exc
    except RuleError as exc:  # in players' words, names not seat letters, as for .../events
        raise ApiError(422, refusal_words(str(exc), game_state(status), exc.rule), rule=exc.rule,
                       detail=str(exc)) from exc
    except CribbageError as exc:
        raise ApiError(400, name_seats(str(exc), game_state(status))) from exc
    game = state.get("game") if state else status.get("game")
    return jsonify(game_id=game, state=enrich(state) if state else {})


@bp.get("/crops/<name>")
def crop(name: str) -> Response:
    # no status check: the Fix tab shows the crops of games the camera saw before this start
    if not CROP_NAME.fullmatch(name):
        raise ApiError(404, "no such crop")
    data = camera().camera_crop(name)
    if data is None:
        raise ApiError(404, "no such crop")
    return jpeg(data, "max-age=3600")
