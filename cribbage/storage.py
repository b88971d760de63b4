"""What SQLite's failures mean at the table: a full SD card, a read-only one, an I/O error, a
busy or a damaged game log, each as a :class:`~cribbage.errors.StorageError` in plain words.

>>> import sqlite3
>>> error = storage_error(sqlite3.OperationalError("database or disk is full"), "games.db")
>>> error.cause, str(error)
('full', 'the SD card is full: nothing was recorded')
>>> storage_error(sqlite3.OperationalError("no such column: x"), "games.db") is None
True
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import time
from pathlib import Path

from cribbage.errors import StorageError

__all__ = ["DAMAGED", "file_error", "integrity_problems", "open_error", "storage_error"]

DAMAGED = "the game log is damaged: run crib game recover"

# SQLite's primary result codes (the low byte of an extended code)
_CODES = {13: "full", 8: "read-only", 3: "read-only", 10: "io", 5: "locked", 6: "locked",
          11: "damaged", 26: "damaged", 14: "cannot-open"}
# the same, by SQLite's standard messages (an error raised without a code, e.g. by a wrapper)
_MESSAGES = (("disk is full", "full"), ("readonly database", "read-only"),
             ("disk i/o error", "io"), ("is locked", "locked"), ("malformed", "damaged"),
             ("not a database", "damaged"), ("unable to open", "cannot-open"))

_WORDS = {
    "full": "the SD card is full",
    "read-only": "the game log is read-only (the SD card may be locked or mounted read-only)",
    "io": "the SD card failed to read or write (I/O error)",
    "locked": "the game log is busy (another program holds it): try again",
    "cannot-open": "the game log cannot be opened",
}


def _cause(exc: sqlite3.Error) -> str | None:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _CODES:
        return _CODES[code & 0xFF]
    text = str(exc).lower()
    return next((cause for words, cause in _MESSAGES if words in text), None)


def storage_error(exc: sqlite3.Error, path: str, *, writing: bool = True) -> StorageError | None:
    """``exc`` as a :class:`StorageError` when the storage failed; None for any other error (a
    bug, which the caller lets through)."""
    cause = _cause(exc)
    if cause is None:
        return None
    if cause == "damaged":
        return StorageError(DAMAGED, cause="damaged")
    if cause == "cannot-open":
        cause = "io"
    words = _WORDS[cause]
    if writing and cause != "locked":
        words += ": nothing was recorded"
    elif writing:
        words = words.replace(": try again", ": nothing was recorded; try again")
    return StorageError(words, cause=cause)


_FILE_CAUSES = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "read-only",
                errno.EACCES: "read-only", errno.EPERM: "read-only", errno.EIO: "io",
                errno.ENOENT: "missing", errno.ENOTDIR: "missing"}


def file_error(exc: OSError, what: str, folder: Path) -> StorageError | None:
    """``exc``, raised writing ``what`` (``"the photo"``, ``"the zones"``) into ``folder``, as a
    :class:`StorageError` in a player's words (``cause`` as for the game log: ``full`` is the
    page's 507, the others 503); None for an error that is not the storage's.

    >>> error = file_error(OSError(errno.ENOSPC, "No space left on device"), "the photo",
    ...                    Path("/data/photos"))
    >>> error.cause, str(error)
    ('full', 'the SD card is full: the photo was not stored')
    >>> str(file_error(FileNotFoundError(errno.ENOENT, "gone"), "the zones", Path("/nowhere")))
    'there is no folder /nowhere: the zones were not stored'
    """
    cause = _FILE_CAUSES.get(exc.errno or 0)
    if cause is None:
        return None
    were = "were" if what.endswith("s") else "was"
    words = {
        "full": "the SD card is full",
        "read-only": f"the folder {folder} is read-only",
        "io": "the SD card failed to write (I/O error)",
        "missing": f"there is no folder {folder}",
    }[cause]
    return StorageError(f"{words}: {what} {were} not stored", cause=cause)


LOW_SPACE_BYTES = 4 * 1024 * 1024
"""Less free space than this where the game log lives, and a failure to open it is the full
disk's (SQLite reports an I/O error there, yet the card is sound)."""


def free_bytes(folder: Path) -> int | None:
    """Free bytes on the disk holding ``folder`` (:func:`shutil.disk_usage`), None when unknown.

    >>> free_bytes(Path(".")) > 0, free_bytes(Path("/no/such/folder"))
    (True, None)
    """
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def open_error(exc: sqlite3.Error, path: str) -> StorageError | None:
    """``exc``, raised while opening or creating the game log at ``path``, as one line naming the
    real cause (a read-only folder, a full disk, ...); None when the file is simply not a
    database, or for any other error. The free space is looked at before an I/O error is blamed
    on the card: under :data:`LOW_SPACE_BYTES` free, the card is full.
    """
    cause = _cause(exc)
    where = Path(path)
    folder = where.parent
    if cause in ("cannot-open", "read-only") and not folder.is_dir():
        return StorageError(f"cannot open the game log {path}: there is no folder {folder}",
                            cause="missing")
    if cause in ("cannot-open", "read-only") and not os.access(folder, os.W_OK):
        return StorageError(f"cannot open the game log {path}: the folder {folder} is read-only",
                            cause="read-only")
    if cause == "read-only" or (cause == "cannot-open" and where.exists()
                                and not os.access(where, os.W_OK)):
        return StorageError(f"cannot open the game log {path}: the file is read-only",
                            cause="read-only")
    free = free_bytes(folder) if cause in ("full", "io", "cannot-open") else None
    if cause == "full" or (free is not None and free < LOW_SPACE_BYTES):
        room = f" ({free / 1e6:.1f} MB free)" if free is not None else ""
        return StorageError(f"cannot open the game log {path}: the SD card is full{room}: free "
                            "some space (old photos, other files) and start again", cause="full")
    if cause == "io":
        return StorageError(f"cannot open the game log {path}: the SD card failed (I/O error)",
                            cause="io")
    if cause == "locked":
        return StorageError(f"cannot open the game log {path}: another program holds it",
                            cause="locked")
    if cause == "cannot-open":
        return StorageError(f"cannot open the game log {path} ({exc})", cause="io")
    if cause == "damaged" and "not a database" not in str(exc):
        return StorageError(f"{path} is damaged ({exc}): run crib game recover --db {path} "
                            "--out NEW", cause="damaged")
    return None


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.passed = False

    def __call__(self) -> int:
        self.passed = time.monotonic() > self.end
        return 1 if self.passed else 0


def integrity_problems(db: sqlite3.Connection, seconds: float = 10.0) -> list[str] | None:
    """SQLite's ``PRAGMA quick_check``: ``[]`` when the file is sound, else its first problems
    (at most 5); None when the check took longer than ``seconds`` and was stopped.

    >>> integrity_problems(sqlite3.connect(":memory:"))
    []
    """
    deadline = _Deadline(seconds)
    db.set_progress_handler(deadline, 10_000)
    try:
        rows = [str(row[0]) for row in db.execute("PRAGMA quick_check(5)")]
    except sqlite3.OperationalError:
        if deadline.passed:
            return None
        raise
    except sqlite3.DatabaseError as exc:  # too damaged even to check
        return [str(exc)]
    finally:
        db.set_progress_handler(None, 0)
    return [] if rows == ["ok"] else rows
