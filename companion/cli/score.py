"""``crib score``: count a hand or crib in the show, itemised, with the spoken count.

$ crib score 5C 5D 5H JS --starter 5S
29  fifteen two, fifteen four, ... and his nobs is twenty-nine
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from companion.cli.base import UsageError, print_json

if TYPE_CHECKING:
    from cribbage.cards import Card


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="count a hand or the crib with its starter",
        description="Count a show hand (4 cards, or 3 in the five-card game) or the crib "
        "with the starter: every fifteen, pair, run, flush and nobs, and the count as "
        "players say it. Cards are rank then suit: 5H, TD or 10d, J♠.",
        epilog="examples: crib score 5C 5D 5H JS --starter 5S --json | "
        "printf '5C 5D 5H JS 5S\\n' | crib score --stdin --json",
    )
    p.add_argument("cards", nargs="*", metavar="CARD", help="the hand (or crib) cards")
    p.add_argument("--starter", "-s", metavar="CARD", help="the starter card")
    p.add_argument("--crib", action="store_true", help="count as the crib (flush only with the starter)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--stdin",
        action="store_true",
        help="read lines of cards (hand first, starter last) and print one result per line",
    )
    p.set_defaults(handler=run)


def _cards(tokens: list[str]) -> list[Card]:
    """Parse each token as a card; the first that is not one is named in a :class:`CardError`.

    Cards written in words (``5 of hearts``) get the notation to use instead.

    >>> _cards(["5", "of", "hearts", "JS"])
    Traceback (most recent call last):
    ...
    cribbage.errors.CardError: not a card: '5' (write rank then suit, ...); for '5 of hearts' write 5H
    >>> _cards(["5C", "5D", "5H", "Jack"])
    Traceback (most recent call last):
    ...
    cribbage.errors.CardError: not a card: 'Jack' (write rank then suit, like 5H, TD or 10♦)
    """
    from cribbage.cards import parse_card
    from cribbage.errors import CardError

    cards = []
    for i, token in enumerate(tokens):
        try:
            cards.append(parse_card(token))
        except CardError as exc:
            words = tokens[i : i + 3]
            hint = _in_words(words)
            raise CardError(f"{exc}; for {' '.join(words)!r} write {hint}" if hint else str(exc)) from None
    return cards


def _in_words(words: list[str]) -> str | None:
    """The card that ``words`` name, like ``5 of hearts`` or ``jack of spades``: ``'5H'``; else None.

    >>> _in_words(["Queen", "of", "Diamonds"]), _in_words(["10", "of", "club"]), _in_words(["of", "x"])
    ('QD', 'TC', None)
    """
    from cribbage.cards import RANK_NAMES, SUIT_NAMES, Card, parse_card
    from cribbage.errors import CardError

    if len(words) != 3 or words[1].lower() != "of":
        return None
    rank_word, suit_word = words[0].lower(), words[2].lower()
    suit = next((s for s, name in enumerate(SUIT_NAMES) if suit_word in (name, name[:-1])), None)
    if suit is None:
        return None
    if rank_word in RANK_NAMES:
        return Card.of(RANK_NAMES.index(rank_word) + 1, suit).name
    try:  # a rank as the notation writes it: 5, 10, T, J, A ...
        return Card.of(parse_card(rank_word + "S").rank, suit).name
    except CardError:
        return None


def _score_line(tokens: list[str], crib: bool) -> dict:
    from cribbage.cards import require_distinct
    from cribbage.show import score_hand

    cards = _cards(tokens)
    if len(cards) not in (4, 5):
        raise UsageError(f"a line needs the hand and the starter (4 or 5 cards), got {len(tokens)}")
    require_distinct(cards)
    return score_hand(cards[:-1], cards[-1], crib=crib).to_json()


def run(args: argparse.Namespace) -> int:
    from cribbage.errors import CribbageError
    from cribbage.show import score_hand

    if args.stdin:
        if args.cards or args.starter:
            raise UsageError("give cards either as arguments or on stdin, not both")
        status = 0
        for line in sys.stdin:
            tokens = line.replace(",", " ").split()
            if not tokens:
                continue
            try:
                result = _score_line(tokens, args.crib)
            except (CribbageError, UsageError) as exc:
                result, status = {"error": str(exc)}, 0
            if args.json:
                print_json(result)
            else:
                total = result.get("total", "error")
                print(f"{' '.join(tokens)}: {total}  {result.get('spoken', result.get('error'))}")
        return status

    hand = _cards(args.cards)  # a word that is no card is named before anything is missing
    if args.starter is None:
        if len(args.cards) == 5:
            raise UsageError("name the starter with --starter (five cards given)")
        raise UsageError("the starter is missing: add --starter CARD")
    (starter,) = _cards([args.starter])
    score = score_hand(hand, starter, crib=args.crib)
    if args.json:
        print_json(score.to_json())
        return 0
    what = "crib" if args.crib else "hand"
    print(f"{score.total}  {score.spoken}")
    print(f"{what}: {' '.join(c.name for c in hand)}   starter: {starter.name}")
    for item in score.items:
        print(f"  {item.points:>2}  {item.kind:<8} {' '.join(c.name for c in item.cards)}")
    return 0
