"""A progress bar on stderr for the long jobs behind commands (rebuilding tables, enumerating).

>>> show = progress_bar("deals")
>>> show(3, 3)  # doctest: +SKIP
deals [##############################] 3/3
"""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["Progress", "progress_bar"]

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a long job runs."""

WIDTH = 30
"""Characters in the bar."""


def progress_bar(label: str, *, tty_only: bool = False) -> Progress | None:
    """A ``progress(done, total)`` callback drawing ``label [####....] done/total`` on stderr, at
    most about a hundred times a job; ``None`` (no bar) when ``tty_only`` and stderr is not a
    terminal."""
    if tty_only and not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if done != total and done % max(total // 100, 1):
            return
        filled = WIDTH * done // total
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show
