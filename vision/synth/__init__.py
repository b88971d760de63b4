"""Synthetic card photos for training and testing the card reader (see docs/vision-synth.md)."""
