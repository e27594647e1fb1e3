"""Offsets into a document's text and LSP positions (0-based line, a column counted in the
code units the client and server agreed on: UTF-16 unless the client offers another).

Lines end where LSP says they end, at `\\r\\n`, `\\r` or `\\n`, which is also where libcst and
the engine's `LineIndex` end them. Python's `str.splitlines` also breaks at form feeds, U+2028
and six more characters, so a position computed with it lands on the wrong line in any file
that holds one (a `^L` page break between functions is common in older code).
"""
from __future__ import annotations

import re
from bisect import bisect_right

from devlint.lint.analyze import LineIndex

LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of `text`, each with its line break, broken only where LSP breaks them."""
    lines, start = [], 0
    for match in LINE_BREAK.finditer(text):
        lines.append(text[start:match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def code_units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == "utf-32":
        return len(text)
    # A lone surrogate (a broken `\ud83d` pasted into an editor) still counts as one unit.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class PositionMap:
    """One text's offsets and positions, both ways, in O(log lines + line length)."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        self.starts = LineIndex(text).starts

    def offset_of_finding(self, line: int, column: int) -> int:
        """The offset of a finding's 1-based line and 1-based column (code points)."""
        return min(self._line_start(line - 1) + column - 1, self._line_end(line - 1))

    def position(self, offset: int) -> tuple[int, int]:
        """(line, character) of an offset, both 0-based, the character in code units."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        return line, code_units(self.text[start:offset], self.encoding)

    def offset(self, line: int, character: int) -> int:
        """The offset of a client's position; past a line's end means its end, as LSP says."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start, end = self._line_start(line), self._line_end(line)
        if self.encoding == "utf-32":
            return min(start + character, end)
        units = 0
        for index in range(start, end):
            if units >= character:
                return index
            units += code_units(self.text[index], self.encoding)
        return end

    def line_end(self, line: int) -> int:
        """The offset where 0-based `line`'s content ends, before its line break."""
        return self._line_end(line)

    def _line_start(self, line: int) -> int:
        return self.starts[line] if 0 <= line < len(self.starts) else len(self.text)

    def _line_end(self, line: int) -> int:
        if line + 1 >= len(self.starts):
            return len(self.text)
        end = self.starts[line + 1]
        while end > self.starts[line] and self.text[end - 1] in "\r\n":
            end -= 1
        return end
