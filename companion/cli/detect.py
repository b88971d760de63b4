"""``crib detect``, ``crib check`` and ``crib vision eval``: read cards in photos.

$ crib detect table.jpg --json
{"image": "table.jpg", "width": 1280, "height": 960, "cards": [{"card": "5H", ...}], ...}
$ crib check hand.jpg --json        (the card lying apart is the starter)
$ crib check dealt.jpg --discard --dealer    (the six dealt: which two to lay away)
$ crib vision eval ../shared/datasets/cards-real-dev --out /tmp/vision-report
$ crib vision teach clubs.jpg diamonds.jpg hearts.jpg spades.jpg --out deck.npz --cards all
$ crib detect table.jpg --deck deck.npz        (read with the taught deck)
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.base import ArgParser, UsageError, print_json
from companion.cli.discard import add_discard_options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "detect",
        help="find and read every card in photos",
        description="Find every card whose corner index shows in each photo and read it. "
        "Prints one JSON object per image with --json.",
        epilog="example: crib detect table.jpg hand.jpg --json",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="print JSON (one object per line)")
    p.add_argument("--deck", metavar="FILE", help="a taught deck (crib vision teach) to read with")
    p.set_defaults(handler=run_detect)

    p = sub.add_parser(
        "check",
        help="count a hand from a photo of it, or rank the discards of the cards dealt",
        description="Read a hand (4 cards and the starter, or 3 and the starter) in a photo and "
        "count it as crib score does. Without --starter the starter is the card lying apart. "
        "With --discard, read the cards dealt (6, or 5) and rank the ways to lay away to the crib "
        "as crib discard does.",
        epilog="examples: crib check hand.jpg --starter 5S --json | "
        "crib check dealt.jpg --discard --dealer",
    )
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--starter", "-s", metavar="CARD", help="the starter card (if not read apart)")
    p.add_argument("--crib", action="store_true", help="count as the crib")
    p.add_argument("--discard", action="store_true",
                   help="the photo holds the cards dealt: rank the discards (with --dealer or --pone)")
    add_discard_options(p, "with --discard: ")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--deck", metavar="FILE", help="a taught deck (crib vision teach) to read with")
    p.set_defaults(handler=run_check, role=None)

    p = sub.add_parser("vision", help="measure the card reader", description="Card reader tools.")
    vsub = p.add_subparsers(dest="vision_command", metavar="COMMAND", parser_class=ArgParser)
    vsub.required = True
    e = vsub.add_parser(
        "eval",
        help="measure the reader on labelled photos",
        description="Read every photo in a folder with labels.json (the cards-real-dev format) and "
        "print precision, recall, exact-image rate per kind and group, confusions and time.",
        epilog="example: crib vision eval ../shared/datasets/cards-real-dev --out /tmp/report",
    )
    e.add_argument("folder", metavar="DIR")
    e.add_argument("--out", metavar="REPORT_DIR", help="write the miss report (PNG + index.html) here")
    e.add_argument("--json", action="store_true", help="print the full report as JSON")
    e.set_defaults(handler=run_eval)

    t = vsub.add_parser(
        "teach",
        help="teach the reader your own deck (optional)",
        description="Read photos of your deck (cards apart, face up, a suit or so a photo) and keep "
        "the corner indices read, so later readings of this deck are surer. With --cards, the "
        "cards the photos hold (or 'all'): every reading of one of them is kept and the ones never "
        "read are listed; without, only readings the reader is sure of. Optional: the reader works "
        "without it. Put the file in crib serve's data folder as deck.npz for the page to use it.",
        epilog="example: crib vision teach clubs.jpg diamonds.jpg hearts.jpg spades.jpg "
        "--cards all --out deck.npz",
    )
    t.add_argument("images", nargs="+", metavar="IMAGE")
    t.add_argument("--out", metavar="FILE", required=True, help="where to write the taught deck (.npz)")
    t.add_argument("--cards", metavar="CARDS", help="the cards in the photos ('AS 2S 3S ...' or 'all')")
    t.add_argument("--add", action="store_true", help="add to the deck already in --out")
    t.add_argument("--json", action="store_true", help="print what was taught as JSON")
    t.set_defaults(handler=run_teach)


def _read_one(path: str, deck: Any = None) -> tuple[dict[str, Any], Any]:
    """The detect JSON for one photo, and the :class:`vision.reader.Reading` it comes from.

    A photo over 40 MP is read scaled down (:mod:`vision.image`); the JSON still gives its own
    size, and the cards' centres and corners in its own pixels (``scale``: how much smaller it
    was read, 1 when at its size).
    """
    from vision.image import open_photo
    from vision.reader import read_cards

    photo = open_photo(path)
    reading = read_cards(photo.pixels, deck=deck)
    result = photo.reading_json(reading, path)
    result["scale"] = photo.scale
    return result, reading


def _deck(args: argparse.Namespace) -> Any:
    """The taught deck named by ``--deck`` (a bad file is a usage error), or None."""
    if not args.deck:
        return None
    from vision.taught import TaughtDeck

    return TaughtDeck.load(args.deck)


def run_detect(args: argparse.Namespace) -> int:
    from cribbage.errors import CribbageError

    status = 0
    deck = _deck(args)
    for path in args.images:
        try:
            result, _reading = _read_one(path, deck)
        except CribbageError as exc:
            if len(args.images) == 1:
                raise
            status = 2
            if args.json:
                print_json({"image": path, "error": str(exc)})
            else:
                sys.stderr.write(f"crib detect: {exc}\n")
            continue
        if args.json:
            print_json(result)
        else:
            cards = " ".join(f"{c['card']}({c['confidence']:.2f})" for c in result["cards"]) or "no cards"
            extra = f", {len(result['unreadable'])} unreadable" if result["unreadable"] else ""
            scaled = f", read at 1/{result['scale']:g} of {result['width']}x{result['height']}" \
                if result["scale"] != 1 else ""
            print(f"{path}: {cards}{extra}  [{result['ms']:.0f} ms{scaled}]")
    return status


# four cards read in all: a hand of three and the starter, as in the five-card game; said out loud,
# since in the six-card game it means a card of the hand was not read at all
THREE_CARD_HAND = ("a hand of 3 and the starter: counted as in the five-card game (a six-card "
                   "game's hand is 4 cards: if one is missing, retake the photo)")


def run_check(args: argparse.Namespace) -> int:
    from cribbage.cards import parse_card
    from cribbage.show import score_hand
    from vision.hand import starter_apart

    if args.discard and (args.starter is not None or args.crib):
        raise UsageError("--discard ranks the cards dealt: no --starter or --crib with it")
    if not args.discard and (args.role is not None or args.keep is not None):
        raise UsageError("--dealer, --pone and --keep go with --discard (the cards dealt)")
    result, reading = _read_one(args.image, _deck(args))
    read = result["cards"]
    names = [c["card"] for c in read]
    if result["unreadable"]:
        raise UsageError(f"{len(result['unreadable'])} card(s) could not be read "
                         f"(read: {' '.join(names) or 'none'}); retake the photo")
    if args.discard:
        return _check_discard(names, read, args)
    if args.starter is not None:
        starter = parse_card(args.starter)
        hand_names = [n for n in names if n != starter.name]
        if len(hand_names) not in (3, 4):
            raise UsageError(f"read {len(names)} card(s) ({' '.join(names) or 'none'}); "
                             "a hand is 4 cards (or 3) besides the starter")
        out = score_hand([parse_card(n) for n in hand_names], starter, crib=args.crib).to_json()
        out.update(hand=hand_names, starter=starter.name, starter_from="named", read=read)
        return _print_check(out, args.json)
    if len(names) not in (4, 5):
        raise UsageError(f"read {len(names)} card(s) ({' '.join(names) or 'none'}); a hand and its "
                         "starter are 5 cards (or 4)")
    k = starter_apart(reading.cards)  # in the order of "read": both come from reading.cards
    if k is not None:
        starter = parse_card(names[k])
        hand = [parse_card(n) for i, n in enumerate(names) if i != k]
        out = score_hand(hand, starter, crib=args.crib).to_json()
        out.update(hand=[c.name for c in hand], starter=starter.name, starter_from="the card lying apart",
                   read=read)
        return _print_check(out, args.json)
    return _each_starter(names, read, args.crib, args.json)


def _each_starter(names: list[str], read: list[dict[str, Any]], crib: bool, as_json: bool) -> int:
    """No starter named and none lying apart: the count with each possible starter, as the
    page's Photo tab gives it (:func:`cribbage.show.each_starter`): four cards are the hand,
    with each card of the pack not among them; five, each of them the starter of the others."""
    from cribbage.cards import parse_cards
    from cribbage.show import each_starter, starter_groups

    options = each_starter(parse_cards(names), crib=crib)
    from_cards = len(names) == 5
    if from_cards:
        message = "no card lies apart from the rest: the count with each of the five as the starter"
    else:
        message = f"no starter lies apart: the hand {' '.join(names)} with each possible starter"
    out = {"starter": None, "hand": None if from_cards else names,
           "starters_from": "cards" if from_cards else "pack", "message": message,
           "options": [{"starter": o.starter.name, **o.to_json()} for o in options],
           "groups": [{"total": total, "starters": starters}
                      for total, starters in starter_groups(options)],
           "read": read}
    lines = [message, *(f"  {g['total']:>2}: starter {' '.join(g['starters'])}" for g in out["groups"])]
    return _emit_check(out, lines, len(names) - 1 if from_cards else len(names), as_json)


def _check_discard(names: list[str], read: list[dict[str, Any]], args: argparse.Namespace) -> int:
    """The discards of the cards read, ranked as ``crib discard`` ranks them (its JSON, with
    ``read`` added)."""
    from companion.cli.discard import advise, print_table

    if len(names) not in (5, 6):
        raise UsageError(f"read {len(names)} card(s) ({' '.join(names) or 'none'}); the cards dealt "
                         "are 6 (or 5): retake the photo with all of them apart")
    top = args.top
    advice = advise(names, args)
    if args.json:
        print_json({**advice.as_dict(top), "read": read})
    else:
        print_table(advice, top)
    return 0


def _print_check(out: dict[str, Any], as_json: bool) -> int:
    lines = [f"{out['total']}  {out.get('spoken', '')}",
             f"hand {' '.join(out['hand'])}, starter {out['starter']} ({out['starter_from']})",
             "read: " + " ".join(c["card"] for c in out["read"])]
    return _emit_check(out, lines, len(out["hand"]), as_json)


def _emit_check(out: dict[str, Any], lines: list[str], hand_size: int, as_json: bool) -> int:
    """Print a check's result (JSON, or its text ``lines``), with the note a hand of 3 asks for."""
    if hand_size == 3:
        out["note"] = THREE_CARD_HAND
        lines = [*lines, THREE_CARD_HAND]
    if as_json:
        print_json(out)
    else:
        print("\n".join(lines))
    return 0


def run_eval(args: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.evaluate import evaluate

    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder")
    report = evaluate(folder, Path(args.out) if args.out else None,
                      log=lambda m: sys.stderr.write(m + "\n"))
    if report["images"] and len(report["unopened"]) == report["images"]:
        first = report["unopened"][0]
        raise UsageError(f"none of the {report['images']} labelled images opened "
                         f"({first['image']}: {first['error']})")
    if args.json:
        print_json(report)
        return 0
    t = report["table_photos"]
    print(f"table photos: precision {t['precision']}, recall {t['recall']}, exact images {t['exact_images']}")
    for kind, v in report["per_kind"].items():
        print(f"  {kind:<22} images {v['images']:>5}  precision {v['precision']}  recall {v['recall']}  "
              f"exact {v['exact_images']}  false cards {v['false_cards']}  "
              f"ms {v['ms_mean']} (max {v['ms_max']})")
    print("group-weighted (each group of near-duplicates counts once):")
    for kind, v in report["per_kind_group_weighted"].items():
        print(f"  {kind:<22} groups {v['images']:>6}  precision {v['precision']}  recall {v['recall']}  "
              f"exact {v['exact_images']}")
    print(f"empty webcam frames with a card read: {report['empty_frames_with_cards']}; "
          f"webcam frames with any card read: {report['webcam_frames_with_cards_read']}; "
          f"unreadable marks: {report['unreadable_marks']} "
          f"({report['empty_images_with_unreadable']} on images with no card)")
    conf = ", ".join(f"{c['true']}→{c['read']}×{c['n']}" for c in report["confusions"][:15])
    print(f"confusions: {conf or 'none'}")
    for what in ("rank", "suit"):
        glyphs = report[f"per_{what}"]
        if not any(v["cards"] for v in glyphs.values()):
            continue
        print(f"recall by {what}: " + "  ".join(
            f"{g} {v['recall']:.2f}" for g, v in glyphs.items() if v["recall"] is not None) + "  "
            + "(cards: " + " ".join(f"{g} {v['cards']}" for g, v in glyphs.items() if v["cards"]) + ")")
    for m in report["unopened"]:
        print(f"not opened, left out of the figures: {m['image']}: {m['error']}")
    print(f"time per image: {report['ms_per_image_mean']} ms; images with a miss: {len(report['misses'])}")
    if args.out:
        print(f"miss report: {Path(args.out) / 'index.html'}")
    return 0


def run_teach(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cribbage.cards import parse_cards
    from vision.cnn import CARDS
    from vision.reader import load_image
    from vision.taught import TaughtDeck
    from vision.teach import teach

    cards = None
    if args.cards is not None:
        if args.cards.strip().lower() == "all":
            cards = list(CARDS)
        else:
            cards = [c.name for c in parse_cards(args.cards)]
            if not cards:
                raise UsageError("--cards is a list of cards ('AS 2S 3S') or 'all'")
    out = Path(args.out)
    if out.suffix != ".npz":
        raise UsageError(f"--out {out}: the taught deck is a .npz file")
    earlier = TaughtDeck.load(out) if args.add and out.exists() else None
    images = [(path, load_image(path)) for path in args.images]  # every photo opens before any work
    lesson = teach(images, cards=cards, add_to=earlier)
    if not lesson.deck.cards:
        raise UsageError("no card was read in those photos: nothing taught (lay the cards apart, "
                         "face up, in good light, and photograph them from above)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp.npz")
    lesson.deck.save(tmp)
    tmp.replace(out)  # a crash mid-write leaves the old deck whole
    known = lesson.deck.known()
    missing = sorted({c for v in lesson.missing.values() for c in v}, key=CARDS.index)
    if args.json:
        print_json({"out": str(out), "taught": known, "per_image": lesson.taught, "missing": missing,
                    "indices": len(lesson.deck.cards)})
        return 0
    for path, here in lesson.taught.items():
        print(f"{path}: {' '.join(here) or 'nothing taught'}")
    print(f"taught {len(known)} of 52 cards ({len(lesson.deck.cards)} corner indices) -> {out}")
    if missing:
        print(f"never read, photograph again: {' '.join(missing)}")
    return 0
