"""The page itself: one phone-first page with the table, play, fixes, photo, history and a new
game; everything after the first load goes through the JSON API (``web.api``).
"""

from __future__ import annotations

import logging
import time

from flask import Blueprint, Response, current_app, g, render_template, request

from web.api import csrf_token, ctx, game_or_404, unlocked

bp = Blueprint("pages", __name__)
access = logging.getLogger("web.access")


@bp.before_app_request
def started() -> None:
    g.started = time.perf_counter()


@bp.after_app_request
def log_request(response: Response) -> Response:
    if request.path != "/api/stream":
        ms = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
        access.info("%s %s %s %.0fms", request.method, logged_path(), response.status_code, ms)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    if response.mimetype == "text/html":
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
        )
    return response


def logged_path() -> str:
    """The request's path and query as the access log keeps it: a table code never written."""
    query = [(k, "…" if k == "code" else v) for k, v in request.args.items(multi=True)]
    return request.path + ("?" + "&".join(f"{k}={v}" for k, v in query) if query else "")


@bp.get("/")
def index() -> str:
    return page(None)


@bp.get("/games/<int:game_id>")
def game_page(game_id: int) -> str:
    game_or_404(game_id)  # a game that is not there is a friendly 404
    return page(game_id)


def page(game_id: int | None) -> str:
    c = ctx()
    return render_template(
        "index.html",
        csrf=csrf_token(),
        game_id=game_id,
        pin=c.settings.pin_state,
        unlocked=unlocked(),
        status=c.table.status(),
        max_upload=current_app.config["MAX_CONTENT_LENGTH"],
    )
