"""Tiny causal LM, sampling and decoding helpers."""
