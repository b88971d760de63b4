"""Errors of the card reader.

>>> issubclass(ImageError, CribbageError)
True
"""

from __future__ import annotations

from cribbage.errors import CribbageError


class ImageError(CribbageError):
    """A file or upload that is not an image the reader can open (missing, damaged, too large)."""
