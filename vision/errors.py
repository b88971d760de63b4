"""Errors of the card reader.

>>> issubclass(ImageError, CribbageError), issubclass(LabelsError, CribbageError)
(True, True)
"""

from __future__ import annotations

from cribbage.errors import CribbageError


class ImageError(CribbageError):
    """A file or upload that is not an image the reader can open (missing, damaged, too large)."""


class LabelsError(CribbageError):
    """A ``labels.json`` (of a folder to measure the reader on) that is not in the labels' format."""
