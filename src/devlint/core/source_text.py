"""Python source bytes read as text, as CPython reads them (a PEP 263 cookie, a BOM), with no
parser: what a file's cached findings are looked up by needs this and nothing heavier (the
flake8 plugin's warm workers never import libcst)."""
from __future__ import annotations

import io
import tokenize

from devlint.core.codes import NOT_FETCHED, lfs_pointer
from devlint.core.lines import line_number


class SourceError(Exception):
    """The bytes cannot be read as Python source: (line, column, reason)."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.column, self.reason = line, column, reason


def decode_source(data: bytes) -> str:
    return decode_source_with_encoding(data)[0]


def decode_source_with_encoding(data: bytes) -> tuple[str, str]:
    """Decode as Python would (PEP 263 cookie, BOM), refusing NUL bytes; the encoding is
    what writing the text back must use ('utf-8-sig' keeps a BOM)."""
    if lfs_pointer(data):
        raise SourceError(1, 1, NOT_FETCHED)
    if b"\x00" in data:
        line = line_number(data.decode("latin-1"), data.index(b"\x00"))
        raise SourceError(line, 1, "source contains NUL bytes")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        # An undecodable first line looks like a bad cookie to tokenize: say which it is.
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            encoding = "utf-8"
        else:
            raise SourceError(1, 1, str(exc)) from None
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        line = 1
        if isinstance(exc, UnicodeDecodeError):
            line = line_number(data.decode("latin-1"), exc.start)
        raise SourceError(line, 1, f"cannot decode as {encoding}: {exc.reason if isinstance(exc, UnicodeDecodeError) else exc}") from None
    return (text[1:] if text.startswith("\ufeff") else text), encoding
