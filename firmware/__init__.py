"""firmware part of Cribbage Companion (see README)."""
