"""Where a line of a notebook cell lies in the notebook file itself: the `.ipynb` JSON text.

Findings name a cell and a line inside it, as Jupyter shows them. A SARIF viewer or a GitHub
annotation opens the file, so they also need the line and column of that character in the
JSON: the place of the `source` string that holds it, with each escape (`\\"`, `\\n`,
`\\u00e9`) counted as the characters it takes in the file. Only the path to the cells' sources
is walked by hand; every other value is skipped with the standard library's own scanner.
"""
from __future__ import annotations

import json
from json.decoder import scanstring
from typing import Optional

from devlint.core.findings import Location

_WHITESPACE = " \t\n\r"
_SIMPLE_ESCAPE = 2  # `\n`, `\"`: two characters in the file for one in the string
_UNICODE_ESCAPE = 6  # `\u00e9`


class _Malformed(Exception):
    pass


class NotebookText:
    """The notebook's text and, per cell number (from 1, as findings count them), the pieces
    of its source: (offset of the string's first character in the text, raw body)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sources: dict[int, list[tuple[int, str]]] = {}
        self._scan = json.JSONDecoder().scan_once
        try:
            self._top()
        except (_Malformed, ValueError, IndexError, StopIteration):
            self.sources = {}  # positions are a courtesy: without them, none are given

    def locate(self, cell: int, line: int, column: int) -> Optional[Location]:
        """The file position of `column` (1-based) of `line` of `cell`, or None."""
        pieces = self.sources.get(cell)
        if not pieces:
            return None
        decoded = [scanstring(self.text, start)[0] for start, _ in pieces]
        lines = "".join(decoded).splitlines(keepends=True)
        if not 1 <= line <= len(lines):
            return None
        target = sum(len(text) for text in lines[: line - 1]) + min(column - 1, len(lines[line - 1]))
        last = len(pieces) - 1
        for index, ((start, raw), text) in enumerate(zip(pieces, decoded)):
            if target < len(text) or index == last:
                return self._position(start + _raw_offset(raw, min(target, len(text))))
            target -= len(text)
        return None

    def _position(self, offset: int) -> Location:
        line_start = self.text.rfind("\n", 0, offset) + 1
        return Location(self.text.count("\n", 0, offset) + 1, offset - line_start + 1)

    # -- the walk: {"cells": [{"source": "..." | ["...", ...]}, ...]} -----------------------

    def _top(self) -> None:
        for key, at in self._members(self._skip(0)):
            if key == "cells":
                return self._cells(at)
            self._value_end(at)

    def _cells(self, at: int) -> None:
        number = 0
        for start in self._elements(at):
            number += 1
            if self.text[start] != "{":
                self._value_end(start)
                continue
            for key, value in self._members(start):
                if key == "source":
                    self.sources[number] = self._source(value)
                else:
                    self._value_end(value)

    def _source(self, at: int) -> list[tuple[int, str]]:
        if self.text[at] == '"':
            return [self._string(at)]
        if self.text[at] != "[":
            raise _Malformed
        return [self._string(start) for start in self._elements(at)]

    def _string(self, at: int) -> tuple[int, str]:
        if self.text[at] != '"':
            raise _Malformed
        _, end = scanstring(self.text, at + 1)
        self._end = end
        return at + 1, self.text[at + 1: end - 1]

    # -- JSON structure, with positions -------------------------------------------------------

    def _skip(self, at: int) -> int:
        while self.text[at] in _WHITESPACE:
            at += 1
        return at

    def _value_end(self, at: int) -> None:
        _, self._end = self._scan(self.text, at)

    def _members(self, at: int):
        """(key, offset of its value) of the object at `at`; the caller consumes each value,
        leaving its end in `self._end`."""
        at = self._open(at, "{", "}")
        while at is not None:
            if self.text[at] != '"':
                raise _Malformed
            key, at = scanstring(self.text, at + 1)
            at = self._skip(at)
            if self.text[at] != ":":
                raise _Malformed
            yield key, self._skip(at + 1)
            at = self._next(self._end, "}")

    def _elements(self, at: int):
        """Offsets of the values of the array at `at`; the caller consumes each one."""
        at = self._open(at, "[", "]")
        while at is not None:
            yield at
            at = self._next(self._end, "]")

    def _open(self, at: int, opener: str, closer: str) -> Optional[int]:
        """The first item's offset, or None for an empty container (its end in `_end`)."""
        if self.text[at] != opener:
            raise _Malformed
        return self._next(at + 1, closer, first=True)

    def _next(self, at: int, closer: str, first: bool = False) -> Optional[int]:
        at = self._skip(at)
        if self.text[at] == closer:
            self._end = at + 1
            return None
        if first:
            return at
        if self.text[at] != ",":
            raise _Malformed
        return self._skip(at + 1)


def _raw_offset(raw: str, index: int) -> int:
    """The offset in a JSON string's raw body of its `index`-th decoded character."""
    offset = 0
    for _ in range(index):
        if raw[offset] != "\\":
            offset += 1
        elif raw[offset + 1] != "u":
            offset += _SIMPLE_ESCAPE
        elif 0xD800 <= int(raw[offset + 2: offset + 6], 16) < 0xDC00:
            offset += 2 * _UNICODE_ESCAPE  # a surrogate pair: one character in Python
        else:
            offset += _UNICODE_ESCAPE
    return offset
