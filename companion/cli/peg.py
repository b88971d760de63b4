"""``crib peg``: score the play from a sequence of cards laid and goes.

$ crib peg A:4S B:5H A:3C B:3D A:3S B:7C A:go B:6D A:9H
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.base import UsageError, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "peg",
        help="score the play (pegging) from the cards laid",
        description="Score the play from tokens SEAT:CARD or SEAT:go, seats lettered from the "
        "pone (A) on. A seat that cannot lay a card says go before the other seat lays again; "
        "a go at the very end may be left out.",
        epilog="example: crib peg A:4S B:5H A:3C B:3D A:3S B:7C A:go B:6D A:9H --json",
    )
    p.add_argument("tokens", nargs="*", metavar="SEAT:CARD", help="e.g. A:4S, B:go")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--stdin", action="store_true", help="read one sequence per line from stdin")
    p.add_argument(
        "--five-card", action="store_true", help="five-card game: the play stops at the first 31 or go"
    )
    p.set_defaults(handler=run)


def peg_sequence(tokens: list[str], *, single_series: bool = False) -> dict[str, Any]:
    """Score a play given as tokens; raises a CribbageError naming the bad token."""
    from cribbage.cards import parse_card
    from cribbage.errors import RuleError
    from cribbage.play import Play, seat_letter, seat_number

    if not tokens:
        raise UsageError("no plays given (tokens look like A:4S or B:go)")
    parsed: list[tuple[str, int, str]] = []
    for token in tokens:
        seat_text, sep, what = token.partition(":")
        if not sep or not what:
            raise UsageError(f"bad token {token!r}: write SEAT:CARD or SEAT:go, like A:4S")
        try:
            seat = seat_number(seat_text.strip())
        except RuleError:
            raise UsageError(f"bad seat in {token!r}: seats are letters from A") from None
        parsed.append((token, seat, what.strip()))
    seats = max(2, max(seat for _, seat, _ in parsed) + 1)
    play = Play(seats, single_series=single_series)
    for token, seat, what in parsed:
        try:
            if what.lower() == "go":
                play.go(seat)
            else:
                play.lay(seat, parse_card(what))
        except RuleError as exc:
            raise RuleError(f"{token}: {exc}", rule=exc.rule) from None
        except ValueError as exc:
            raise UsageError(f"{token}: {exc}") from None
    play.finish()
    totals = {seat_letter(s): p for s, p in play.totals().items()}
    return {"plays": [e.to_json() for e in play.entries], "totals": totals}


def _print_text(result: dict[str, Any]) -> None:
    for entry in result["plays"]:
        why = ", ".join(f"{i['kind']} {i['points']}" for i in entry["items"])
        points = f"+{entry['points']}" if entry["points"] else ""
        print(f"{entry['seat']} {entry['card']:>3}  {entry['count']:>2}  {points:>3}  {why}")
    print("totals: " + ", ".join(f"{s} {p}" for s, p in result["totals"].items()))


def run(args: argparse.Namespace) -> int:
    from cribbage.errors import CribbageError

    if args.stdin:
        if args.tokens:
            raise UsageError("give plays either as arguments or on stdin, not both")
        for line in sys.stdin:
            tokens = line.split()
            if not tokens:
                continue
            try:
                result = peg_sequence(tokens, single_series=args.five_card)
            except (CribbageError, UsageError) as exc:
                result = {"error": str(exc)}
            if args.json:
                print_json(result)
            elif "error" in result:
                print(f"error: {result['error']}")
            else:
                _print_text(result)
        return 0
    result = peg_sequence(args.tokens, single_series=args.five_card)
    if args.json:
        print_json(result)
    else:
        _print_text(result)
    return 0
