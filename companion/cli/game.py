"""``crib game``: follow a game in a SQLite log from the command line.

``crib game new --db PATH [--variant ...] [--target 121|61] [--players Ann,Bob] [--muggins]
[--counting auto|claim]`` starts a game; ``crib game event --db PATH 'JSON'`` (or JSON objects
one per line on stdin with ``--stdin``) applies events; ``crib game state --db PATH --json``
prints the state. ``crib game log`` lists the events and ``crib game list`` the games; ``crib game
recover --db DAMAGED --out NEW`` copies what can still be read of a damaged log into a new one. Every
command acts on the latest game of the database unless ``--game ID`` is given. A refused
event prints one line naming the rule and exits 2; the database is left as it was.

>>> import tempfile, os
>>> db = os.path.join(tempfile.mkdtemp(), "g.db")
>>> from companion.cli import main
>>> main(["game", "new", "--db", db, "--players", "Ann,Bob"])  # doctest: +ELLIPSIS
{"game": 1, ...}
0
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from typing import Any

from companion.cli.base import ArgParser, UsageError, print_json

VARIANT_CHOICES = ("six-card", "five-card", "three-player", "four-player")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``crib game`` and its subcommands."""
    p = sub.add_parser(
        "game",
        help="follow a game: new, event, state, log, list, recover (SQLite event log)",
        description="Follow a whole game of cribbage from table events kept in a SQLite log. "
        "See docs/game.md for every event and the state JSON.",
    )
    g = p.add_subparsers(dest="game_command", metavar="ACTION", parser_class=ArgParser)
    g.required = True

    def common(q: argparse.ArgumentParser, game: bool = True, create: bool = False) -> None:
        q.add_argument("--db", required=True, help="the SQLite game log" + (
            " (created if missing)" if create else ""))
        if game:
            q.add_argument("--game", type=int, help="game id (default: the latest game)")

    new = g.add_parser("new", help="start a game", description="Start a game and print it.")
    common(new, game=False, create=True)
    new.add_argument("--variant", choices=VARIANT_CHOICES, default="six-card")
    new.add_argument("--target", type=int, choices=(121, 61), help="121 or 61 (five-card: 61)")
    new.add_argument("--players", help="names in seat order, comma separated: Ann,Bob")
    new.add_argument("--muggins", action="store_true", help="an opponent may peg missed points")
    new.add_argument("--counting", choices=("auto", "claim"),
                     help="auto: the companion pegs what it counts; claim: players claim "
                     "(default: claim with --muggins, else auto)")
    last = new.add_mutually_exclusive_group()
    last.add_argument("--three-for-last", dest="three_for_last", action="store_true",
                      default=None, help="the first pone pegs 3 at the start")
    last.add_argument("--no-three-for-last", dest="three_for_last", action="store_false")
    new.add_argument("--overclaim", choices=("refuse", "peg"), default="refuse",
                     help="an over-claim is refused (default) or, with muggins off, pegged")
    new.set_defaults(handler=run_new)

    event = g.add_parser(
        "event", help="apply table events",
        description="Apply one event (JSON) or, with --stdin, one per line. An event is UTF-8 "
        "JSON of at most 16384 bytes, nested at most 32 deep, its text valid Unicode; its numbers "
        "are bounded: adjust points 1 to 121, a misdeal's penalty 0 to 10, a claim 0 to 29, an "
        "event number 1 to 1000000 (docs/game.md). Anything else is refused on one line, exit 2.",
    )
    common(event)
    event.add_argument("json", nargs="?", help='the event, e.g. \'{"type": "go", "seat": "A"}\'')
    event.add_argument("--stdin", action="store_true",
                       help="read events from stdin, one JSON object a line (all or none)")
    event.add_argument("--source", default="cli", help="who sent it (cli, camera, page, ...)")
    event.set_defaults(handler=run_event)

    state = g.add_parser("state", help="print the state", description="Print the game state.")
    common(state)
    state.add_argument("--json", action="store_true", help="the full state as one JSON line")
    state.set_defaults(handler=run_state)

    log = g.add_parser("log", help="list the events of a game",
                       description="Every stored event, with what superseded it and its points.")
    common(log)
    log.add_argument("--json", action="store_true")
    log.set_defaults(handler=run_log)

    games = g.add_parser("list", help="list the games", description="Every game in the log.")
    common(games, game=False)
    games.add_argument("--json", action="store_true")
    games.set_defaults(handler=run_list)

    rescue = g.add_parser(
        "recover", help="copy what can be read of a damaged game log into a new file",
        description="Copy every game and event of a damaged game log that can still be read into "
        "a new file (the damaged one is only read). A game keeps its events up to the first one "
        "lost. Prints the counts; then serve the new file (rename it games.sqlite3).")
    rescue.add_argument("--db", required=True, help="the damaged game log")
    rescue.add_argument("--out", required=True, help="the new game log to write (must not exist)")
    rescue.set_defaults(handler=run_recover)


def _check_log(db: str, *, create: bool = False) -> None:
    """Refuse ``db`` unless it is a game log (or, with ``create``, a file not there yet), before
    anything is written: an empty file or another database is left byte for byte as it was."""
    import os
    import sqlite3
    from pathlib import Path
    from urllib.parse import quote

    path = Path(db)
    if not path.exists():
        if create:
            return
        raise UsageError(f"no game log at {db}: start one with crib game new --db {db}")
    if not path.is_file():
        raise UsageError(f"{db} is not a file")
    if path.stat().st_size == 0:
        raise UsageError(f"{db} is an empty file, not a game log: name a new file or a game log")
    try:
        with path.open("rb") as f:
            header = f.read(16)
    except OSError as exc:
        raise UsageError(f"cannot read {db} ({exc.strerror})") from None
    if header != b"SQLite format 3\x00":
        raise UsageError(f"{db} is not a game log (not a SQLite database)")
    try:
        conn = sqlite3.connect(f"file:{quote(os.fsencode(path.resolve()))}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise UsageError(f"{db} is not a game log ({exc})") from None
    if version == 0:
        raise UsageError(f"{db} is a SQLite database but not a game log")


def _store(args: argparse.Namespace, *, create: bool = False, writing: bool = False) -> Any:
    from cribbage.gamelog import GameStore

    _check_log(args.db, create=create)
    store = GameStore(args.db)
    if store.damage is not None and not writing:  # a write answers "damaged" on its own
        print(f"crib game: {store.damage}: showing what can be read; run crib game recover "
              f"--db {args.db} --out NEW", file=sys.stderr)
    return store


def _game_id(store: Any, args: argparse.Namespace) -> int:
    if getattr(args, "game", None) is not None:
        return int(args.game)
    latest = store.latest_game()
    if latest is None:
        raise UsageError(f"no game in {args.db}: start one with crib game new --db {args.db}")
    return int(latest)


def _refusal(exc: Exception) -> UsageError:
    from cribbage.errors import RuleError

    if isinstance(exc, RuleError):
        return UsageError(f"refused (rule: {exc.rule}): {exc}")
    return UsageError(f"refused: {exc}")


def run_new(args: argparse.Namespace) -> int:
    """``crib game new``."""
    from cribbage.errors import CribbageError

    settings: dict[str, Any] = {
        "variant": args.variant,
        "muggins": args.muggins,
        "counting": args.counting,
        "overclaim": args.overclaim,
    }
    if args.target:
        settings["target"] = args.target
    if args.players:
        settings["players"] = args.players
    if args.three_for_last is not None:
        settings["three_for_last"] = args.three_for_last
    with _store(args, create=True, writing=True) as store:
        try:
            game_id = store.new_game(settings)
        except CribbageError as exc:
            raise _refusal(exc) from None
        print_json(store.state(game_id))
    return 0


def _parse_event(text: str | bytes, where: str) -> dict[str, Any]:
    """One event from JSON ``text``, within the engine's limits (:mod:`cribbage.game.limits`)."""
    from cribbage.errors import InputError
    from cribbage.game.limits import load_json

    try:
        event = load_json(text, what=where)
    except InputError as exc:
        raise UsageError(str(exc)) from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{where} is not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(event, dict):
        raise UsageError(f"{where} is not a JSON object")
    return event


MAX_STDIN_EVENTS = 10_000
"""The most events one ``crib game event --stdin`` applies (a whole game is a few hundred)."""


def _stdin_events() -> list[dict[str, Any]]:
    """The events on stdin, one JSON object a line; a line too long is refused as soon as it is
    seen, without reading the rest of it."""
    from cribbage.game.limits import MAX_EVENT_BYTES

    stream = getattr(sys.stdin, "buffer", sys.stdin)  # bytes from a real stdin
    events: list[dict[str, Any]] = []
    for k in itertools.count(1):
        line = stream.readline(MAX_EVENT_BYTES + 2)
        if not line:
            break
        body = line.rstrip(b"\r\n" if isinstance(line, bytes) else "\r\n")
        if len(body) > MAX_EVENT_BYTES:
            raise UsageError(f"line {k} is too large (an event is at most {MAX_EVENT_BYTES} bytes)")
        if not body.strip():
            continue
        if len(events) == MAX_STDIN_EVENTS:
            raise UsageError(f"more than {MAX_STDIN_EVENTS} events on stdin: send them in parts")
        events.append(_parse_event(body, f"line {k}"))
    return events


def run_event(args: argparse.Namespace) -> int:
    """``crib game event``."""
    from cribbage.errors import CribbageError

    if args.stdin:
        if args.json:
            raise UsageError("give the event as an argument or with --stdin, not both")
        _check_log(args.db)
        events = _stdin_events()
        if not events:
            raise UsageError("no events on stdin")
    else:
        if not args.json:
            raise UsageError("give the event as JSON, e.g. '{\"type\": \"go\", \"seat\": \"A\"}'")
        events = [_parse_event(args.json, "the event")]
    with _store(args, writing=True) as store:
        game_id = _game_id(store, args)
        try:
            state = store.apply_many(game_id, events, source=args.source)
        except CribbageError as exc:
            raise _refusal(exc) from None
        print_json(state)
    return 0


def _describe(state: dict[str, Any]) -> str:
    names = {s["id"]: s["name"] for s in state["sides"]}
    scores = ", ".join(f"{names[k]} {v}" for k, v in state["scores"].items())
    lines = [f"game {state['game']} ({state['variant']}, to {state['target']}): {scores}"]
    if state["winner"]:
        skunk = f" ({state['skunk']})" if state["skunk"] else ""
        lines.append(f"{state['winner_name']} won{skunk}")
    else:
        lines.append(
            f"deal {state['deal']}, dealer {state['dealer']}, phase {state['phase']}, "
            f"next {state['next']}, count {state['count']}, starter {state['starter']}"
        )
    if state["last"]:
        items = "; ".join(f"{i['seat']} {i['kind']} {i['points']}" for i in state["last"])
        lines.append(f"last: {items}")
    for m in state["muggins"]:
        lines.append(f"muggins open: {m['seat']} missed {m['points']} ({', '.join(m['callers'])} "
                     "may call)")
    return "\n".join(lines)


def run_state(args: argparse.Namespace) -> int:
    """``crib game state``."""
    with _store(args) as store:
        state = store.state(_game_id(store, args))
    if args.json:
        print_json(state)
    else:
        print(_describe(state))
    return 0


def run_log(args: argparse.Namespace) -> int:
    """``crib game log``."""
    with _store(args) as store:
        events = store.events(_game_id(store, args))
    if args.json:
        print_json(events)
        return 0
    for e in events:
        mark = f"  (superseded by {e['superseded_by']})" if e["superseded_by"] else ""
        pts = ", ".join(f"{p['seat']} {p['kind']} {p['pegged']}" for p in e["points"])
        print(f"{e['id']:4d} {e['at']} {e['source']:8s} {json.dumps(e['event'])}"
              f"{'  -> ' + pts if pts else ''}{mark}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    """``crib game list``."""
    with _store(args) as store:
        games = store.games()
    if args.json:
        print_json(games)
        return 0
    for g in games:
        scores = " ".join(f"{k}:{v}" for k, v in g["scores"].items())
        won = f"won by {g['winner_name']}" + (f" ({g['skunk']})" if g["skunk"] else "") \
            if g["winner"] else g["phase"]
        print(f"{g['id']:4d} {g['created']} {g['variant']} {', '.join(g['players'])}: "
              f"{scores} {won}")
    return 0


def run_recover(args: argparse.Namespace) -> int:
    """``crib game recover``."""
    from cribbage.recovery import recover

    report = recover(args.db, args.out)
    print(f"{report.summary()} into {args.out}")
    for line in report.details():
        print(f"  {line}")
    return 0
