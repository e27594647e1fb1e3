"""Where the few nodes that become findings start and end, at a third of PositionProvider's cost.

libcst's PositionProvider regenerates the module's code and, for every token, splits it on
newlines to track the line and column, and builds two position objects for every node. A file
with one finding paid that for all of its nodes: on pytorch/examples it cost a third of the
parse. Here the same code generation only notes, for the nodes asked about, how many tokens
came before them; one sum over the tokens' lengths then gives offsets into the text (libcst's
code generation reproduces the source exactly), and the offsets become lines and columns.
Positions are libcst's *syntactic* ones (a statement without its leading blank lines or
comments), as PositionProvider gives; tests/test_positions.py checks every node of every
fixture against PositionProvider.
"""
from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from typing import Iterable, Iterator, Optional

import libcst as cst
from libcst._nodes.internal import CodegenState

from devlint.core.lines import line_starts


@dataclass(frozen=True)
class Point:
    line: int  # from 1
    column: int  # from 0, in characters


@dataclass(frozen=True)
class Span:
    start: Point
    end: Point


class _MarkingState(CodegenState):
    """Code generation that records token counts at the start and end of the wanted nodes."""

    def __init__(self, module: cst.Module, wanted: Iterable[cst.CSTNode]) -> None:
        super().__init__(default_indent=module.default_indent,
                         default_newline=module.default_newline)
        self.wanted = set(wanted)
        self.opened: dict[cst.CSTNode, int] = {}
        self.spans: dict[cst.CSTNode, tuple[int, int]] = {}

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node in self.wanted:
            self.opened[node] = len(self.tokens)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.opened.pop(node, None)
        if start is not None:
            # A syntactic span recorded inside the node's own code generation wins.
            self.spans.setdefault(node, (start, len(self.tokens)))

    @contextmanager
    def record_syntactic_position(self, node: cst.CSTNode, *, start_node: Optional[cst.CSTNode] = None,
                                  end_node: Optional[cst.CSTNode] = None) -> Iterator[None]:
        if node not in self.wanted:
            yield
            return
        # The hoisted ends are children generated inside this block: ask for them before.
        self.wanted.update(n for n in (start_node, end_node) if n is not None)
        start = len(self.tokens)
        try:
            yield
        finally:
            end = len(self.tokens)
            if start_node is not None and start_node in self.spans:
                start = self.spans[start_node][0]
            if end_node is not None and end_node in self.spans:
                end = self.spans[end_node][1]
            self.spans[node] = (start, end)

    def pop_trailing_newline(self) -> None:
        pass  # the spans are already counted; the text itself is never used


class _Everything:
    """The wanted set of a piece's code generation: every node of it."""

    def __contains__(self, node: object) -> bool:
        return True

    def update(self, nodes: Iterable) -> None:
        pass


# An editor's buffer is parsed in pieces (`parse.PieceParser`), one per top-level statement,
# kept across keystrokes: the spans of every node of a piece are kept with it, so a keystroke
# generates the code of the statements it touched only, and each piece's spans move by the
# lines of the pieces above it.
_LAYOUTS: "OrderedDict[int, tuple]" = OrderedDict()  # id(module) -> (module, its pieces)
_PIECE_SPANS: "OrderedDict[int, tuple]" = OrderedDict()  # id(piece) -> (piece, spans)
_LAYOUTS_KEPT, _PIECES_KEPT = 8, 8192


def register_layout(module: cst.Module, pieces: list[tuple[cst.Module, int, dict]]) -> None:
    """`module` is `pieces` put together: each is (a piece's module, the line of the whole text
    its first line is, {node of `module`: the piece's node it stands for}) for the statements
    that took the next piece's leading lines."""
    _LAYOUTS[id(module)] = (module, pieces)
    _LAYOUTS.move_to_end(id(module))
    while len(_LAYOUTS) > _LAYOUTS_KEPT:
        _LAYOUTS.popitem(last=False)


def _piece_spans(piece: cst.Module) -> dict:
    kept = _PIECE_SPANS.get(id(piece))
    if kept is not None and kept[0] is piece:
        _PIECE_SPANS.move_to_end(id(piece))
        return kept[1]
    state = _MarkingState(piece, ())
    state.wanted = _Everything()  # type: ignore[assignment]
    piece._codegen(state)
    spans = _spans(state)
    _PIECE_SPANS[id(piece)] = (piece, spans)
    while len(_PIECE_SPANS) > _PIECES_KEPT:
        _PIECE_SPANS.popitem(last=False)
    return spans


def _spans(state: _MarkingState) -> dict[cst.CSTNode, Span]:
    ends = [0, *accumulate(map(len, state.tokens))]
    # Lines of the generated code, not the source: they differ only by the newline libcst adds
    # at the end of a file without one, and PositionProvider counts that newline too.
    starts = line_starts("".join(state.tokens))

    def point(token_index: int) -> Point:
        offset = ends[token_index]
        line = bisect_right(starts, offset)
        return Point(line, offset - starts[line - 1])

    return {node: Span(point(a), point(b)) for node, (a, b) in state.spans.items()}


def _from_pieces(pieces: list, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, Span]:
    wanted = set(nodes)
    found: dict[cst.CSTNode, Span] = {}
    for piece, first_line, stands_for in pieces:
        spans = _piece_spans(piece)
        shift = first_line - 1
        for node in wanted:
            span = spans.get(stands_for.get(node, node))
            if span is not None:
                found[node] = Span(Point(span.start.line + shift, span.start.column),
                                   Point(span.end.line + shift, span.end.column))
        wanted.difference_update(found)
        if not wanted:
            break
    return found


def spans_of(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, Span]:
    """The span of each of `nodes`, nodes of `module`."""
    layout = _LAYOUTS.get(id(module))
    if layout is not None and layout[0] is module:
        return _from_pieces(layout[1], nodes)
    state = _MarkingState(module, nodes)
    module._codegen(state)
    return _spans(state)
