"""web part of Cribbage Companion (see README)."""
