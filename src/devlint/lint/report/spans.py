"""Where a finding ends, and where a fix's edits lie, as lines and columns: findings carry only
a start and fixes offsets into the file's text. Shared by the JSON report and the editor."""
from __future__ import annotations

import io
import re
import tokenize
from bisect import bisect_right
from typing import Optional

_WORD = re.compile(r"\w+")


def token_extent(rest: str) -> tuple[int, int]:
    """(skip, length) of the token at the start of `rest`, the rest of a line from a finding's
    column: its name, string or keyword. A token that goes on past the line ends with it."""
    try:
        token = next(tokenize.generate_tokens(io.StringIO(rest).readline))
        length = token.end[1] - token.start[1] if token.end[0] == 1 else 0
        return token.start[1], max(length, 0)
    except (tokenize.TokenError, SyntaxError, StopIteration):
        match = _WORD.match(rest)
        return 0, match.end() if match else 0


class SourceText:
    """A checked file's text, as the analysis saw it (decoded by its encoding, line breaks as
    they are), with offsets turned into 1-based lines and columns (code points). Standard
    input's text is the one `devlint check -` remembered in linecache, never the file on disk
    its --stdin-filename names."""

    def __init__(self, text: str) -> None:
        from devlint.core.lines import line_starts

        self.text = text
        self.starts = line_starts(text)

    @classmethod
    def of(cls, path: str) -> Optional["SourceText"]:
        import linecache

        entry = linecache.cache.get(path)
        if entry is not None and len(entry) == 4 and entry[1] is None:  # standard input's
            return cls("".join(entry[2]))
        from devlint.core.source_text import SourceError, decode_source_with_encoding

        try:
            with open(path, "rb") as handle:
                return cls(decode_source_with_encoding(handle.read())[0])
        except (OSError, SourceError, UnicodeDecodeError):
            return None

    def place(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def line_text(self, line: int) -> str:
        if not 0 < line <= len(self.starts):
            return ""
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def end_of(self, line: int, column: int) -> tuple[int, int]:
        """Where the token a finding at (line, column) points at ends (exclusive column)."""
        rest = self.line_text(line)[column - 1:]
        skip, length = token_extent(rest)
        return line, column + skip + length
