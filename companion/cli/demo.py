"""``crib demo``: one sample deal played and counted in the terminal, no camera, no board.

It shows the engine at work the way the table hears it: the starter, every card laid with the
running count and what it pegs, then the show in order (pone, dealer, crib) with the count
spoken as players say it.
"""

from __future__ import annotations

import argparse
import time

from companion.cli.base import print_json

DEALER, PONE = "Bob", "Ann"
HANDS = {PONE: "5C 5D 6H 7S", DEALER: "4S 4H JD QC"}
CRIB = "5S 9C KH AD"
STARTER = "5H"


def sample_deal() -> dict:
    """Play and count the sample deal; returns everything as JSON-ready data."""
    from cribbage.cards import parse_card, parse_cards
    from cribbage.play import Play
    from cribbage.show import score_hand

    starter = parse_card(STARTER)
    names = [PONE, DEALER]
    moves = [
        (0, "7S"),
        (1, "4S"),
        (0, "6H"),
        (1, "4H"),
        (0, "5C"),
        (1, "go"),
        (0, "5D"),
        (1, "JD"),
        (0, "go"),
        (1, "QC"),
    ]
    play = Play(2)
    pegged = dict.fromkeys(names, 0)
    lines = []
    for seat, what in moves:
        awards = play.go(seat) if what == "go" else play.lay(seat, parse_card(what))
        for award in awards:
            pegged[names[award.seat]] += award.item.points
        said = "go" if what == "go" else f"{what} ({play.entries[-1].count})"
        why = ", ".join(f"{a.item.kind} {a.item.points} to {names[a.seat]}" for a in awards)
        lines.append({"seat": names[seat], "says": said, "pegs": why})
    for award in play.finish():
        pegged[names[award.seat]] += award.item.points
        lines.append({"seat": names[award.seat], "says": "last card", "pegs": "go 1"})

    show = []
    for who, cards, crib in (
        (PONE, HANDS[PONE], False),
        (DEALER, HANDS[DEALER], False),
        (f"{DEALER}'s crib", CRIB, True),
    ):
        score = score_hand(parse_cards(cards), starter, crib=crib)
        owner = DEALER if crib else who
        pegged[owner] += score.total
        show.append({"who": who, "cards": cards.split(), **score.to_json()})
    return {"dealer": DEALER, "pone": PONE, "starter": STARTER, "play": lines, "show": show, "scores": pegged}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="play and count a sample deal in the terminal",
        description="Play and count one sample deal, as the companion would "
        "announce it. Needs no camera, no LEDs and no Pi.",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--pace", type=float, default=0.0, help="seconds to pause between lines")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    deal = sample_deal()
    if args.json:
        print_json(deal)
        return 0

    def say(text: str = "") -> None:
        print(text, flush=True)
        if args.pace:
            time.sleep(args.pace)

    say(f"Cribbage Companion demo: {deal['dealer']} deals, {deal['pone']} is pone.")
    say(f"Starter: {deal['starter']}")
    say()
    say("The play")
    for line in deal["play"]:
        say(f"  {line['seat']:<4} {line['says']:<18} {line['pegs']}")
    say()
    say("The show")
    for entry in deal["show"]:
        say(
            f"  {entry['who']:<11} {' '.join(entry['cards'])} + {deal['starter']}: "
            f"{entry['spoken']} ({entry['total']})"
        )
    say()
    say("Score: " + ", ".join(f"{who} {points}" for who, points in deal["scores"].items()))
    return 0
