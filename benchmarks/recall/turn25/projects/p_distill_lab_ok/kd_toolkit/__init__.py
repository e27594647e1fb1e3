"""Distil a transformer topic classifier into a small student."""
