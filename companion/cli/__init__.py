"""The ``crib`` console command.

Every module in this package that defines ``register(subparsers)`` adds its subcommands, so a
part of the system brings its commands by adding one file here. Modules keep their top-level
imports light (argparse only) and import the heavy parts inside their handlers, so that
``crib score`` does not pay for OpenCV or Flask.

Errors the user can fix (a bad card, an illegal play, a missing file) are raised as
:class:`cribbage.errors.CribbageError` or :class:`companion.cli.base.UsageError`, and storage trouble
(a full or read-only SD card, a damaged game log) as :class:`cribbage.errors.StorageError`; :func:`main`
prints them on one line and exits with status 2, never with a traceback.

>>> main(["score", "5C", "5D", "5H", "JS", "--starter", "5S"])  # doctest: +ELLIPSIS
29 ...
0
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from companion.cli.base import ArgParser, UsageError, fail

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``crib`` parser with every subcommand this package's modules register."""
    parser = ArgParser(
        prog="crib",
        description="Cribbage Companion: score hands and plays, follow a game, read cards, "
        "light the peg board.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgParser)
    sub.required = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name == "base" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``crib`` with ``argv`` (default: the process arguments) and return the exit status."""
    from cribbage.errors import CribbageError, StorageError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.handler(args)
    except (CribbageError, StorageError, UsageError) as exc:
        return fail(f"crib {args.command}: {exc}")
    except KeyboardInterrupt:
        return fail("interrupted", status=130)
    except BrokenPipeError:
        return 0
    return 0 if status is None else int(status)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
