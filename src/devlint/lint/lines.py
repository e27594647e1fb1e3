"""Lines as Python counts them: they end at \\r\\n, \\r or \\n, and nowhere else.

`str.splitlines()` also breaks at form feed, \\x0b, \\x1c-\\x1e, \\x85, U+2028 and U+2029, all
of which may sit inside a Python line (a form feed between sections, U+2028 pasted into a
string). Every line number devlint computes or looks up (noqa, positions, notebook cells,
--show-source, the flake8 plugin) goes through here, so they all agree with CPython, libcst
and flake8.
"""
from __future__ import annotations

import re

NEWLINE = re.compile(r"\r\n|\r|\n")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """`text.splitlines(keepends)`, breaking only where Python does."""
    lines = _LINE.findall(text)
    return lines if keepends else [NEWLINE.sub("", line, count=1) for line in lines]


def line_starts(text: str) -> list[int]:
    """The offset at which each line starts (a final empty line after a newline included)."""
    return [0] + [match.end() for match in NEWLINE.finditer(text)]


def line_at(text: str, number: int) -> str:
    """Line `number` (from 1) without its line break; "" past the end."""
    lines = split_lines(text)
    return lines[number - 1] if 0 < number <= len(lines) else ""


def line_number(text: str, offset: int) -> int:
    """The line (from 1) that the character at `offset` is on."""
    return len(NEWLINE.findall(text, 0, offset)) + 1
