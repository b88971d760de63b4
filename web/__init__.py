"""The companion page: a Flask application factory, phone first, nothing loaded from outside.

:func:`create_app` takes the companion (anything with the :class:`web.ports.Table` methods) and a
configuration; it never builds a store, LEDs or a camera itself. ``crib serve`` runs the app under
waitress; tests drive it with Flask's test client::

    app = create_app(table, {"DATA_DIR": tmp_path})
    client = app.test_client()
    client.get("/api/session").json["csrf"]

Configuration keys (all optional but ``DATA_DIR``):

``DATA_DIR``           folder for ``web.json`` (session key, PIN) and ``photos/``
``PIN``                set the table PIN at start (``""`` = no PIN); else the stored one is kept
``NEW_CODE``           make a new table code at start (devices admitted with the old one need it)
``LISTEN_HOST``        the address the server listens on (default ``127.0.0.1``): with the
                     machine's names, the ``Host`` names the table answers to (:mod:`web.hosts`)
``ALLOWED_HOSTS``      more names the table answers to (``crib serve --allow-host``)
``TRUSTED_PROXY``      the address of a reverse proxy whose forwarded client address is believed
                     (``crib serve --behind-proxy``, :mod:`web.proxy`)
``MAX_CONTENT_LENGTH`` largest request body, bytes (default 12 MB: a phone photo)
``MAX_IMAGE_PIXELS``   largest photo taken at all, pixels (default 400 M), checked from the header
                     before decoding; a JPEG over 40 MP is read scaled down, a PNG or WebP over
                     40 MP refused (the pixel budget, :mod:`imaging.limits`)
``PHOTO_READERS``      photos decoded and read at once (default 2); other uploads wait their turn
``PHOTO_WAIT_S``       seconds an upload waits for a turn before a 503 "busy" (default 10)
``KEEP_PHOTOS``        photos kept in ``photos/``; older ones are deleted (default 200)
``MAX_STREAMS``        live pages at once (each holds a server thread); more poll instead
``SSE_HEARTBEAT``      seconds between keep-alive comments on a live stream (default 15)
``SSE_MAX_AGE``        seconds before a live stream ends and the page reconnects (default 300)
``CAMERA_SNAPSHOT_S``  seconds the camera's snapshot is reused for every phone (default 0.5)

The camera is optional: a table with the :class:`web.ports.CameraPort` methods gets the
``/api/camera`` routes and the Camera tab (:mod:`web.camera`); any other table works as before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask

from imaging.limits import MAX_PIXELS
from web.hosts import HostCheck, host_name
from web.hub import Hub
from web.ports import Table
from web.proxy import TrustedProxy
from web.readers import READERS, WAIT_S, ReaderQueue
from web.security import (
    CODE_BURST,
    CODE_REFILL_S,
    PIN_BURST,
    PIN_REFILL_S,
    Throttle,
    WebSettings,
)
from web.sent import SentLog
from web.uploads import clear_parts
from web.words import enrich

__all__ = ["WebContext", "create_app"]


@dataclass
class WebContext:
    """Everything a request handler needs, kept in ``app.extensions["crib"]``."""

    table: Table
    hub: Hub
    settings: WebSettings
    code_tries: Throttle
    """Wrong table codes, per address and from every address together (:mod:`web.security`)."""
    pin_tries: Throttle
    """Wrong PINs, likewise, with a slower bucket."""
    photo_dir: Path
    readers: ReaderQueue
    hosts: HostCheck
    sent: SentLog = field(default_factory=SentLog)
    """The events each phone sent, so Undo asks before undoing another's (:mod:`web.sent`)."""


def create_app(table: Table, config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask app around ``table``."""
    app = Flask(__name__)
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=12 * 1024 * 1024,
        MAX_IMAGE_PIXELS=MAX_PIXELS,
        PHOTO_READERS=READERS,
        PHOTO_WAIT_S=WAIT_S,
        KEEP_PHOTOS=200,
        MAX_STREAMS=48,
        SSE_HEARTBEAT=15.0,
        SSE_MAX_AGE=300.0,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
    )
    if config:
        app.config.update(dict(config))
    if not app.config.get("DATA_DIR"):
        raise ValueError("create_app needs DATA_DIR, the folder for settings and photos")
    data_dir = Path(app.config["DATA_DIR"])
    settings = WebSettings(data_dir / "web.json")
    pin = app.config.get("PIN")
    if pin is not None:
        settings.set_pin(pin or None)
    if app.config.get("NEW_CODE"):
        settings.new_code()
    app.secret_key = settings.secret_key
    hosts = HostCheck(str(app.config.get("LISTEN_HOST") or "127.0.0.1"),
                      app.config.get("ALLOWED_HOSTS") or ())

    hub = Hub(max_streams=int(app.config["MAX_STREAMS"]))
    readers = ReaderQueue(int(app.config["PHOTO_READERS"]), float(app.config["PHOTO_WAIT_S"]))
    tries = data_dir / "web-tries"
    code_tries = Throttle(burst=CODE_BURST, refill_s=CODE_REFILL_S,
                          path=tries.with_suffix(".code.json"))
    pin_tries = Throttle(burst=PIN_BURST, refill_s=PIN_REFILL_S, path=tries.with_suffix(".pin.json"))
    ctx = WebContext(table, hub, settings, code_tries, pin_tries, data_dir / "photos", readers,
                     hosts)
    app.extensions["crib"] = ctx
    clear_parts(ctx.photo_dir)  # photos half written when the server was last killed
    if app.config.get("TRUSTED_PROXY"):
        app.wsgi_app = TrustedProxy(app.wsgi_app, str(app.config["TRUSTED_PROXY"]))  # type: ignore[method-assign]
    app.before_request(host_guard)  # first of all: a page from another name gets nothing

    def relay(topic: str, data: dict[str, Any]) -> None:
        if topic == "state":
            data = {"game_id": data["game_id"], "state": enrich(data["state"])}
            hub.publish(f"state:{data['game_id']}", json.dumps(data, separators=(",", ":")))
        else:
            hub.publish(topic, json.dumps(data, separators=(",", ":")))

    table.add_listener(relay)

    from web import api, camera, errors, pages, tablecode

    app.register_blueprint(api.bp)
    app.register_blueprint(tablecode.bp)
    camera.init_app(app, table)  # /api/camera: 404 unless the table has a camera (CameraPort)
    app.register_blueprint(pages.bp)
    errors.register(app)
    return app


def host_guard() -> Any:
    """421 for a request whose ``Host`` is not one of this table's names (:mod:`web.hosts`):
    JSON, with what to do, whatever was asked for."""
    from flask import current_app, jsonify, request

    header = request.headers.get("Host")
    if current_app.extensions["crib"].hosts.allows(header):
        return None
    name = host_name(header or "")[:100]
    message = (f"this table does not answer to the name {name!r}: open it by its own address, "
               f"or start crib serve with --allow-host {name}")
    return jsonify(error=message, status=421), 421
