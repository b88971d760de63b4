"""Every refusal as a 4xx: JSON ``{"error": ...}`` under ``/api``, a friendly page elsewhere.

A rule the game refuses (:class:`cribbage.errors.RuleError`) is ``422`` with the rule's name; a
card that is not a card is ``400``. Storage trouble (:class:`cribbage.errors.StorageError`) is
``507`` when the SD card is full, else ``503`` (read-only, I/O error, busy, damaged), its ``cause``
named and its message in plain words. Nothing here touches a game: handlers run after the store
refused the change, which leaves the game as it was.
"""

from __future__ import annotations

import logging
import re

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from cribbage.errors import CribbageError, RuleError, StorageError

log = logging.getLogger("web")


class ApiError(Exception):
    """A refusal with its status: ``raise ApiError(404, "no game 9")``."""

    def __init__(self, status: int, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def error_response(status: int, message: str, **extra: object) -> Response | tuple:
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        body = jsonify({"error": message, "status": status, **extra})
        return body, status
    return render_template("error.html", status=status, message=message), status


FOLDER_WORDS = (
    (re.compile(r"the folder \S+ is read-only"), "the data folder is read-only"),
    (re.compile(r"there is no folder \S+?(?=:|$)"), "the data folder is missing"),
    (re.compile(r"the game log /\S+?(?=:|$)"), "the game log"),
)


def without_folders(message: str) -> str:
    """A storage message as a phone is told it: the server's folders not named (the log keeps
    them).

    >>> without_folders("the folder /home/pi/crib/photos is read-only: the photo was not stored")
    'the data folder is read-only: the photo was not stored'
    >>> without_folders("cannot open the game log /srv/g.db: there is no folder /srv")
    'cannot open the game log: the data folder is missing'
    """
    for pattern, words in FOLDER_WORDS:
        message = pattern.sub(words, message)
    return message


def register(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):  # type: ignore[no-untyped-def]
        answer = error_response(exc.status, exc.message, **exc.extra)
        if "retry_after" in exc.extra:  # a throttled guess: when to try again
            answer[0].headers["Retry-After"] = str(exc.extra["retry_after"])
        return answer

    @app.errorhandler(RuleError)
    def rule_error(exc: RuleError):  # type: ignore[no-untyped-def]
        return error_response(422, str(exc), rule=exc.rule)

    @app.errorhandler(CribbageError)
    def cribbage_error(exc: CribbageError):  # type: ignore[no-untyped-def]
        return error_response(400, str(exc))

    @app.errorhandler(StorageError)
    def storage_error(exc: StorageError):  # type: ignore[no-untyped-def]
        log.error("storage trouble on %s %s: %s", request.method, request.path, exc)
        return error_response(507 if exc.cause == "full" else 503, without_folders(str(exc)),
                              cause=exc.cause)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
        status = exc.code or 500
        message = {
            404: "nothing here",
            405: "that method is not allowed here",
            413: "the upload is too large",
        }.get(status, exc.description or exc.name)
        return error_response(status, message)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):  # type: ignore[no-untyped-def]
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "the companion hit a bug; the game is unchanged")
