"""What ``crib serve`` prints once it listens (:func:`greeting`): the address to open, who can
reach the table and the table code. Its own module, so that :mod:`companion.service`, which
prints it, and :mod:`companion.cli.serve`, which starts the service, do not import each other.
"""

from __future__ import annotations

from web.hosts import url_host


def greeting(host: str, port: int, data_dir: object, code: str, pin_state: str, *,
             hostname: str, lan: str | None) -> list[str]:
    """What ``crib serve`` prints once it listens: the address to open, then who can reach the
    table, the table code and, on the network without a PIN, what to do.

    >>> import textwrap
    >>> lines = greeting("0.0.0.0", 8121, "~/crib", "K7MX3P", "unset", hostname="pi",
    ...                  lan="192.168.1.20")
    >>> print(textwrap.fill(lines[0], 90))
    Cribbage Companion: open http://127.0.0.1:8121/ in this computer's browser (data in
    ~/crib; Ctrl-C stops)
    >>> print(textwrap.fill(lines[1], 90))
      listening on every address: phones on the network can watch at http://pi.local:8121/ or
    http://192.168.1.20:8121/; changing the game needs the table code K7MX3P (or the link
    http://192.168.1.20:8121/?code=K7MX3P) and there is no PIN: set one on the page's New tab
    or with --pin to keep changes to those who know it
    >>> greeting("127.0.0.1", 8121, "d", "K7MX3P", "none", hostname="pi", lan=None)[1][-50:]
    'they need the table code K7MX3P to change the game'

    On ``::`` the table listens on IPv6 alone: this computer opens ``[::1]``, phones the
    machine's IPv6 address (``lan``: :func:`web.hosts.lan_address`):

    >>> lines = greeting("::", 8121, "d", "K7MX3P", "set", hostname="pi", lan="fd00::2")
    >>> lines[0][:50], lines[1][lines[1].index("watch"):lines[1].index(";")]
    ('Cribbage Companion: open http://[::1]:8121/ in thi', 'watch at http://pi.local:8121/ or http://[fd00::2]:8121/')
    """
    everywhere = host in ("0.0.0.0", "::", "")
    local_only = host == "localhost" or host.startswith("127.") or host == "::1"
    # waitress listens on IPv6 alone on "::" and "::1": 127.0.0.1 would refuse there
    this_computer = "[::1]" if host in ("::", "::1") else "127.0.0.1"
    shown = this_computer if everywhere or local_only else url_host(host)
    where = "in this computer's browser" if everywhere or local_only else "on a phone or browser"
    lines = [f"Cribbage Companion: open http://{shown}:{port}/ {where} "
             f"(data in {data_dir}; Ctrl-C stops)"]
    if local_only:  # no phone can reach 127.0.0.1: say how to let them in
        lines.append("  listening on this computer only: to let phones on the network in, run "
                     "crib serve --host 0.0.0.0 (or make run HOST=0.0.0.0); they need the "
                     f"table code {code} to change the game")
        return lines
    if everywhere:
        reach = f"http://{hostname}.local:{port}/" + (f" or http://{url_host(lan)}:{port}/" if lan else "")
        link = f"http://{url_host(lan) if lan else hostname + '.local'}:{port}/?code={code}"
        said = "listening on every address: phones on the network"
    else:
        reach = link = f"http://{shown}:{port}/"
        link += f"?code={code}"
        said = "phones on the network"
    pin = ("and the table PIN" if pin_state == "set" else
           "and there is no PIN: set one on the page's New tab or with --pin to keep changes to "
           "those who know it")
    lines.append(f"  {said} can watch at {reach}; changing the game needs the table code {code} "
                 f"(or the link {link}) {pin}")
    return lines
