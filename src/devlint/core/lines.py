"""Lines as Python counts them: they end at \\r\\n, \\r or \\n, and nowhere else.

`str.splitlines()` also breaks at form feed, \\x0b, \\x1c-\\x1e, \\x85, U+2028 and U+2029, all
of which may sit inside a Python line (a form feed between sections, U+2028 pasted into a
string). Every line number devlint computes or looks up (noqa, positions, notebook cells,
--show-source, the flake8 plugin) goes through here, so they all agree with CPython, libcst
and flake8.
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

from devlint.core.findings import TextEdit

NEWLINE = re.compile(r"\r\n|\r|\n")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
# flake8's own syntax, so one comment silences both tools: `# noqa`, `# noqa: DEV002,DEV004`.
NOQA = re.compile(r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.I)


def noqa_codes(line: str) -> Optional[tuple[str, ...]]:
    """None: no noqa; (): bare noqa (silences all); else the listed code prefixes."""
    match = NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    return tuple(c.upper() for c in re.split(r"[,\s]+", codes) if c) if codes else ()


def silences(line: str, code: str) -> bool:
    """Whether the line's `# noqa` comment silences `code`."""
    codes = noqa_codes(line)
    return codes is not None and (not codes or any(code.startswith(c) for c in codes))


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """`text.splitlines(keepends)`, breaking only where Python does."""
    lines = _LINE.findall(text)
    return lines if keepends else [NEWLINE.sub("", line, count=1) for line in lines]


def line_starts(text: str) -> list[int]:
    """The offset at which each line starts (a final empty line after a newline included)."""
    return [0] + [match.end() for match in NEWLINE.finditer(text)]


def line_number(text: str, offset: int) -> int:
    """The line (from 1) that the character at `offset` is on."""
    return len(NEWLINE.findall(text, 0, offset)) + 1


def surviving_lines(old: str, edits: Sequence[TextEdit], new: str) -> dict[int, int]:
    """Lines of `old` that no edit touched, found in `new`: {new line index: old line index}."""
    new_starts = {offset: i for i, offset in enumerate(line_starts(new))}
    starts = line_starts(old)
    kept: dict[int, int] = {}
    for i, text in enumerate(split_lines(old, keepends=True)):
        begin, end = starts[i], starts[i] + len(text)
        if any(touches(edit, begin, end) for edit in edits):
            continue
        at = begin + sum(len(e.text) - (e.end - e.start) for e in edits if e.end <= begin)
        if at in new_starts and new.startswith(text, at):
            kept[new_starts[at]] = i
    return kept


def touches(edit: TextEdit, begin: int, end: int) -> bool:
    if edit.start == edit.end:
        return begin < edit.start < end  # an insertion at a line's start leaves the line be
    return edit.start < end and edit.end > begin
