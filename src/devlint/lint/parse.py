"""From bytes to a libcst tree: decode as Python does, CPython's parser first, then libcst.

A `SourceError` is what a step raises for text Python itself refuses (the caller reports
DEV999); an `Unanalysable` is valid Python that libcst cannot take (DEV998).
"""
from __future__ import annotations

import ast
import contextlib
import gc
import re
import sys
import warnings
from collections import OrderedDict
from typing import Iterator

import libcst as cst

from devlint.core.source_text import SourceError
from devlint.core.limits import Unanalysable, check_size, deep_recursion, screen
from devlint.core.lines import line_starts, split_lines
from devlint.lint.positions import register_layout
from devlint.lint.traverse import NODE_TYPES


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


# The parse also builds a tree of a hundred thousand objects with no reference cycle among
# them, and Python's cyclic collector, run every 700 allocations, would walk the young ones
# again and again as they are built: a fifth of a parse with the run's other trees alive. The
# collector pauses for the parse (it runs again, once, right after, so a cycle made during the
# parse is still freed); reference counting frees everything as before.
@contextlib.contextmanager
def _parser_output_trusted() -> Iterator[None]:
    collecting = gc.isenabled()
    gc.disable()
    checked = cst.CSTNode.__post_init__
    if _SKIPPABLE_VALIDATION:
        cst.CSTNode.__post_init__ = _no_validation
    try:
        yield
    finally:
        cst.CSTNode.__post_init__ = checked
        if collecting:
            gc.enable()


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


# PEP 695's generics and type aliases (Python 3.12): `def f[T](...)`, `class C[T]:`, `type X = ...`.
PEP_695 = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+[ \t]*\[|^[ \t]*type[ \t]+\w+[ \t]*[\[=]")


# An f-string's start (`f'`, `rf"`, `F"""`): PEP 701 (Python 3.12) lets its fields reuse its
# quote (`f'{name.rsplit('_', 1)[0]}'`) and hold backslashes, which older Pythons refuse.
F_STRING = re.compile(r"(?<![\w])(?:[rR]?[fF]|[fF][rR])['\"]")
# What Python 3.11 says of such a field.
PEP_701_ERRORS = ("f-string", "unexpected character after line continuation character")


def newer_grammar(text: str, error: SourceError) -> bool:
    """Whether CPython refused the line only because it predates the line's grammar: PEP 695
    generics or PEP 701 f-strings under Python 3.11 or older. libcst's parser knows that
    grammar (and refuses the line where it is wrong in 3.12 too: `parse_newer`), so the file
    is analysed as the Python it was written for would read it (its package says which)."""
    if sys.version_info >= (3, 12):
        return False
    lines = split_lines(text)  # as CPython counts lines
    line = lines[error.line - 1] if 0 < error.line <= len(lines) else ""
    return PEP_695.match(line) is not None or (
        error.reason.startswith(PEP_701_ERRORS) and F_STRING.search(line) is not None)


def parse_newer(text: str, error: SourceError) -> cst.Module:
    """libcst's tree of a file in a grammar newer than this Python's (`newer_grammar`); where
    libcst refuses it too, the file has a real syntax error and CPython's words say which."""
    try:
        with deep_recursion(), _parser_output_trusted():
            return cst.parse_module(text)
    except (cst.ParserSyntaxError, RecursionError):
        raise error from None


def read_module(text: str, screened: bool = False) -> cst.Module:
    """libcst's tree of text CPython accepts, or that is in a grammar newer than this Python's
    which libcst reads (`newer_grammar`); a SourceError or Unanalysable otherwise. `screened`:
    within the limits a checked file meets first (`core.limits.check_size` and `screen`)."""
    if screened:
        check_size(text)
    try:
        tree = check_syntax(text)
    except SourceError as exc:
        if not newer_grammar(text, exc):
            raise
        return parse_newer(text, exc)
    if screened:
        screen(tree, text)
    del tree  # before libcst's tree, the larger one, is built
    return parse_module(text)


# --- an editor's buffer: parse only the top-level statements an edit touched -------------------

INDENTED_TRAILER = re.compile(r"[ \t\f]+(?:#|\r|\n|\Z)")  # a comment or blank line, indented


class PieceParser:
    """libcst trees of successive versions of one text (an editor's buffer, analysed on every
    keystroke). The text is cut where CPython's tree says a top-level statement begins; each
    piece (the statement with the blank and comment lines before it) is parsed alone and kept
    by its text, so an edit re-parses only the statements it touched, and the tree put together
    is the one libcst builds of the whole text (tested equal on every fixture). Lines libcst
    gives to the block above (comments and blank lines indented under it) stay with it."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.pieces: "OrderedDict[tuple, cst.Module]" = OrderedDict()  # (text, copy) ->
        self.parsed = 0  # pieces parsed, not found: what an edit cost

    def parse(self, text: str, tree: ast.Module) -> cst.Module:
        pieces = _pieces(text, tree)
        if len(pieces) < 2:
            return parse_module(text)
        modules, seen = [], {}
        for piece in pieces:  # a piece the text repeats gets nodes of its own (the model
            # knows a node by its identity): its second copy is kept as the second, and so on
            seen[piece] = seen.get(piece, -1) + 1
            modules.append(self._piece(piece, seen[piece]))
        first, last = modules[0], modules[-1]
        if any(module.footer for module in modules[:-1]) or any(
                (m.default_indent, m.default_newline) != (first.default_indent, first.default_newline)
                for m in modules):
            # lines libcst would give elsewhere, or blocks that would be indented (or lines
            # ended) as another piece's: the whole text, as it is
            return parse_module(text)
        body: list = []
        layout, line = [], 1
        for index, (piece, module) in enumerate(zip(pieces, modules)):
            statements = list(module.body)
            stands_for = {}
            if index and module.header:  # its leading lines: the first statement's, whole
                statements[0] = statements[0].with_changes(
                    leading_lines=(*module.header, *statements[0].leading_lines))
                stands_for[statements[0]] = module.body[0]  # the same syntactic span
            body += statements
            layout.append((module, line, stands_for))
            line += len(line_starts(piece)) - 1  # its line breaks, as libcst counts them
        whole = cst.Module(body=body, header=first.header, footer=last.footer,
                           encoding=first.encoding, default_indent=first.default_indent,
                           default_newline=first.default_newline,
                           has_trailing_newline=last.has_trailing_newline)
        register_layout(whole, layout)
        return whole

    def _piece(self, piece: str, copy: int) -> cst.Module:
        module = self.pieces.get((piece, copy))
        if module is not None:
            self.pieces.move_to_end((piece, copy))
            return module
        module = self.pieces[piece, copy] = parse_module(piece)
        self.parsed += 1
        while len(self.pieces) > self.size:
            self.pieces.popitem(last=False)
        return module


def _pieces(text: str, tree: ast.Module) -> list[str]:
    """`text` cut before each top-level statement's leading lines; statements sharing a line
    (`a = 1; b = 2`) stay together, as do a block and the comments indented under it."""
    lines = split_lines(text, keepends=True)
    cuts: list[int] = []  # 0-based line index each piece after the first starts at
    previous_end, block = 0, False
    for node in tree.body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
        if previous_end and start > previous_end:
            cut = previous_end  # the line after the previous statement's last one
            last_owned = cut  # lines indented under the block above are its own
            for index in range(cut, start - 1 if block else cut):
                if INDENTED_TRAILER.match(lines[index]):
                    last_owned = index + 1
                elif lines[index].strip(" \t\f\r\n"):
                    break
            cuts.append(last_owned)
        previous_end = max(previous_end, node.end_lineno or node.lineno)
        block = isinstance(getattr(node, "body", None), list)  # a compound statement
    bounds = [0] + cuts + [len(lines)]
    return ["".join(lines[a:b]) for a, b in zip(bounds, bounds[1:]) if b > a]
