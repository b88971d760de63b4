"""The table code: a device needs it once to change the game, like a party game's room code.

The code is made at first start and kept in the data folder (:class:`web.security.WebSettings`);
``crib serve`` prints it, and the page shows it in words and as a QR code to every device that
is already admitted. A device is admitted

* when it is the companion's own computer (a loopback address, and no proxy's forwarding
  header: :mod:`web.proxy`): the Pi itself needs no code;
* for as long as its session cookie lasts, once it has sent the code: ``POST /api/code``, or a
  link or QR code to ``/?code=K7MX3P`` (answered with a redirect to ``/``, the code taken out of
  the address; a link opened by another site's page, ``Sec-Fetch-Site: cross-site``, is neither
  compared nor counted); the table PIN never admits a device; or
* for one request, with the header ``X-Table-Code`` (scripts).

Wrong codes are throttled (:class:`web.security.Throttle`): 5 a minute per address, and 10 at
once then 3 a minute from every address together; then 429 with ``Retry-After``. Devices
already admitted, and the Pi, are never held back by it.

Routes: ``GET /api/code`` (``{"admitted": false}``, or, to a device the code admitted and to the
Pi, the code and the link a phone opens; ``reachable`` false when the table listens on this
computer only, so no phone can open the link; ``joined`` true once after a link admitted it),
``POST /api/code`` ``{"code": "k7m x3p"}``, ``GET /api/code.svg`` (the link as a QR code).

>>> qr_svg("http://192.168.1.20:8121/?code=K7MX3P").startswith("<svg")
True
"""

from __future__ import annotations

import io
from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from flask import Blueprint, Response, current_app, jsonify, redirect, request, session
from werkzeug.wrappers import Response as BaseResponse

from web.bodies import body_object
from web.errors import ApiError
from web.hosts import host_name, host_port, phone_name, url_host
from web.proxy import forwarded
from web.security import Throttle, WebSettings, client_key, is_loopback

bp = Blueprint("tablecode", __name__, url_prefix="/api")

CODE_NEEDED = ("this device needs the table code to change the game: ask a player (it is on the "
               "New tab of a phone already playing, with a QR code)")
CODE_AND_PIN_NEEDED = ("this device needs the table code and then the table PIN to change the "
                       "game: Join with the code (ask a player: it is on the New tab of a phone "
                       "already playing), then Unlock with the PIN")
HEADER = "X-Table-Code"


def _settings() -> WebSettings:
    return current_app.extensions["crib"].settings  # type: ignore[no-any-return]


def on_this_computer() -> bool:
    """Is the request from the companion's own computer (trusted: it holds the data folder)? Not
    when it passed through a proxy: a proxy on the Pi forwards every phone from loopback."""
    return is_loopback(request.remote_addr) and not forwarded(request.environ)


def by_code() -> bool:
    """Was this device admitted with the table code (its session keeps the code's stamp)?"""
    return bool(session.get("table") == _settings().code_stamp)


def admitted() -> bool:
    """May this request change the table, as far as the table code goes? A wrong
    ``X-Table-Code`` is refused (403, counted), never just ignored."""
    if on_this_computer() or by_code():
        return True
    sent = request.headers.get(HEADER)
    if sent is None:
        return False
    check_code_or_refuse(sent)
    return True


def admit() -> None:
    """Admit this device's session: it sent the code."""
    session["table"] = _settings().code_stamp


def counted_guess(tries: Throttle, right: Callable[[], bool], *, too_many: str, wrong: str,
                  need: str) -> None:
    """A guess (of the code, or of the PIN) counted in ``tries`` before ``right()`` compares it:
    429 with ``too_many`` (``{wait}``: the seconds to wait) once this address or every address
    has had its share, 403 with ``wrong`` for a wrong guess (written down: a restart keeps it);
    a right one takes its count back."""
    who, pi = client_key(request.remote_addr), on_this_computer()
    attempt = tries.reserve(who, trusted=pi)
    if attempt is None:
        wait = max(1, round(tries.wait_s(who, trusted=pi)))
        raise ApiError(429, too_many.format(wait=wait), retry_after=wait, need=need)
    if not right():
        tries.keep()
        raise ApiError(403, wrong, need=need)
    tries.forgive(who, attempt, trusted=pi)


def check_code_or_refuse(code: object) -> None:
    """Compare ``code`` with the table's, the attempt counted first (:func:`counted_guess`)."""
    ctx = current_app.extensions["crib"]
    counted_guess(ctx.code_tries, lambda: bool(ctx.settings.check_code(code)),
                  too_many="too many wrong table codes have been sent: this device can try again "
                           "in {wait} s (phones already joined play on)",
                  wrong="that is not this table's code", need="code")


def from_another_site() -> bool:
    """Did another site's page send this request (``Sec-Fetch-Site``, or else a ``Referer``
    naming another host)? A link opened from a QR code, typed or tapped in a message is not."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site not in ("none", "same-origin")
    referrer = request.headers.get("Referer")
    return bool(referrer) and urlsplit(referrer).netloc.lower() != request.host.lower()


def table_link(with_code: bool = True) -> str:
    """The address a phone opens: the one this request used, unless that is this computer's own
    (``localhost``) while the table listens on the network: then the network's name for it."""
    host = request.host
    name = host_name(host)
    if name == "localhost" or is_loopback(name):
        public = phone_name(str(current_app.config.get("LISTEN_HOST", "127.0.0.1")))
        if public is not None:
            port = host_port(host)
            host = url_host(public) + (f":{port}" if port else "")
    link = f"{request.scheme}://{host}/"
    return link + ("?" + urlencode({"code": _settings().table_code}) if with_code else "")


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG of dark squares on white with the quiet zone round it."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        out, kind="svg", scale=8, border=4, xmldecl=False, dark="#000", light="#fff",
        title="the table code as a QR code",
    )
    return out.getvalue().decode("utf-8")


@bp.get("/code")
def get_code() -> Response:
    """The code and the link with it for a device the code admitted, or the Pi;
    ``{"admitted": false}`` else."""
    joined = bool(session.pop("joined", False))  # by a link, just now: the page says so once
    if not (on_this_computer() or by_code()):
        return jsonify(admitted=False)
    reachable = phone_name(str(current_app.config.get("LISTEN_HOST", "127.0.0.1"))) is not None
    return jsonify(admitted=True, code=_settings().table_code, link=table_link(),
                   address=table_link(with_code=False), here=on_this_computer(),
                   reachable=reachable, joined=joined)


@bp.post("/code")
def enter_code() -> Response:
    """Admit this device with the table code (needs the CSRF token, like every ``POST``)."""
    check_code_or_refuse(body_object().get("code"))
    admit()
    return jsonify(admitted=True)


@bp.get("/code.svg")
def code_qr() -> Response:
    """The link with the code as a QR code, for an admitted device (403 otherwise)."""
    if not (on_this_computer() or by_code()):
        raise ApiError(403, CODE_NEEDED, need="code")
    response = Response(qr_svg(table_link()), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.before_app_request
def code_in_the_link() -> BaseResponse | None:
    """``GET /?code=K7MX3P`` (the QR code's link): admit the device and send it on to the page
    without the code in its address. A wrong code shows the page, which says so. A link another
    site's page loads (an ``<img>`` pointing here) is sent on without the code, neither compared
    nor counted: it cannot use up the phone's own tries."""
    if request.method != "GET" or request.blueprint != "pages" or "code" not in request.args:
        return None
    if from_another_site():
        return redirect(request.path, code=303)
    try:
        check_code_or_refuse(request.args.get("code"))
    except ApiError:
        return None  # the page sees ?code= and that it is not admitted, and says so
    admit()
    session["joined"] = True
    rest = [(k, v) for k, v in request.args.items(multi=True) if k != "code"]
    return redirect(request.path + ("?" + urlencode(rest) if rest else ""), code=303)
