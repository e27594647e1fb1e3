"""Distil a transformer intent classifier into a small student."""
