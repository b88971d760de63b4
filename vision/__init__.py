"""vision part of Cribbage Companion (see README)."""
