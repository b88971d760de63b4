"""Tests of the game: rules, variants, claims and muggins, corrections, the SQLite log."""
