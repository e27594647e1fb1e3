"""Keyword spotting on variable-length filterbank sequences."""
