"""Shared pieces of the ``crib`` subcommands: the parser class, usage errors, JSON output.

>>> UsageError("no image given")
UsageError('no image given')
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn


class UsageError(Exception):
    """A mistake in how a command was called; printed on one line, exit status 2."""


class ArgParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (see --help)\n")
        raise SystemExit(2)


def fail(message: str, status: int = 2) -> int:
    """Print ``message`` on one line to stderr and return ``status``."""
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return status


def print_json(obj: Any) -> None:
    """Print ``obj`` as one line of JSON on stdout."""
    sys.stdout.write(json.dumps(obj, separators=(", ", ": "), ensure_ascii=False) + "\n")
    sys.stdout.flush()
