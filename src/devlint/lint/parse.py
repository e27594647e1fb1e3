"""From bytes to a libcst tree: decode as Python does, CPython's parser first, then libcst.

A `SourceError` is what a step raises for text Python itself refuses (the caller reports
DEV999); an `Unanalysable` is valid Python that libcst cannot take (DEV998).
"""
from __future__ import annotations

import ast
import contextlib
import io
import tokenize
import warnings
from typing import Iterator

import libcst as cst

from devlint.core.limits import Unanalysable
from devlint.core.lines import line_number
from devlint.lint.traverse import NODE_TYPES


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


def parse_module(text: str) -> cst.Module:
    """libcst's tree of text CPython has accepted: what libcst still refuses is devlint's limit
    (DEV998), said in devlint's words (libcst's own message names its grammar's tokens)."""
    try:
        with _parser_output_trusted():
            return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise Unanalysable(exc.raw_line, exc.raw_column + 1,
                           "its parser cannot read the syntax here (Python can)") from None
    except RecursionError:
        raise Unanalysable(1, 1, "it nests too deep for devlint") from None


def _no_validation(node: cst.CSTNode) -> None:
    pass


# Every libcst node checks its own fields when it is built (`CSTNode.__post_init__` calls
# `_validate`): a tenth to a sixth of a parse, spent re-checking what libcst's parser has just
# built from text that CPython's parser accepted first. libcst's own comment there suggests
# skipping it when parsing a file; nothing overrides `__post_init__` below CSTNode, so the skip
# is one attribute, set for the parse only and restored even when the parse fails.
_SKIPPABLE_VALIDATION = all("__post_init__" not in vars(t) for t in NODE_TYPES if t is not cst.CSTNode)


@contextlib.contextmanager
def _parser_output_trusted() -> Iterator[None]:
    if not _SKIPPABLE_VALIDATION:
        yield
        return
    checked = cst.CSTNode.__post_init__
    cst.CSTNode.__post_init__ = _no_validation
    try:
        yield
    finally:
        cst.CSTNode.__post_init__ = checked


def check_syntax(text: str) -> ast.Module:
    """CPython's tree of `text`, or a SourceError where Python refuses it (DEV999)."""
    try:
        with warnings.catch_warnings():
            # `x = 1[0]`-style SyntaxWarnings are the compiler talking to a script's author.
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.parse(text)
    except SyntaxError as exc:
        raise SourceError(exc.lineno or 1, exc.offset or 1, exc.msg) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise SourceError(1, 1, str(exc) or type(exc).__name__) from None
