"""The positions devlint reports must be libcst's PositionProvider's, for any node asked about."""
from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
import pytest

from conftest import python_sources
from libcst.metadata import MetadataWrapper, PositionProvider

from devlint.lint.positions import spans_of
from devlint.lint.syntax import walk

ROOT = Path(__file__).resolve().parent.parent
SOURCES = python_sources()

# Shapes where the syntactic span differs from the generated one (decorators, leading comments,
# an `else` hoisting its body's end), line endings libcst keeps, and a file without a last newline.
EDGE_CASES = {
    "decorated": "# lead\n\n@dec\n# between\ndef f(x):\n    # inner\n    return x\n",
    "crlf": "if a:\r\n    b = 1\r\nelse:\r\n    b = 2\r\n",
    "cr": "x = 1\ry = (2,\r 3)\r",
    "no-final-newline": "for x in y:\n    f(x)",
    "semicolons": "a = 1; b = 2;  c = g(a,\n  b)\n",
    "unicode": "s = 'é→😀'; t = f(s)  # ü\n",
    "try": "try:\n    x()\nexcept E as e:\n    pass\nelse:\n    y()\nfinally:\n    z()\n",
}


def reference(module: cst.Module) -> dict:
    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


def as_tuple(span) -> tuple:
    return (span.start.line, span.start.column, span.end.line, span.end.column)


def cases() -> list:
    return [pytest.param(p.read_text(encoding="utf-8"), id=str(p.relative_to(ROOT))) for p in SOURCES] + [
        pytest.param(text, id=name) for name, text in EDGE_CASES.items()]


@pytest.mark.parametrize("text", cases())
def test_every_node_devlint_can_point_at_matches_position_provider(text: str) -> None:
    module = cst.parse_module(text)
    expected = reference(module)
    nodes = [node for node in walk(module) if node in expected]
    got = spans_of(module, nodes)
    assert {id(n): as_tuple(got[n]) for n in nodes} == {id(n): as_tuple(expected[n]) for n in nodes}


@pytest.mark.parametrize("text", cases())
def test_a_few_nodes_asked_alone_match(text: str) -> None:
    """Asking for a handful of nodes (as the engine does) gives the same spans as asking for all:
    a syntactic span that borrows a child's end must not depend on the child being asked for."""
    module = cst.parse_module(text)
    expected = reference(module)
    nodes = [node for node in walk(module) if node in expected]
    chosen = random.Random(len(text)).sample(nodes, min(5, len(nodes)))
    got = spans_of(module, chosen)
    assert set(got) >= set(chosen)
    assert [as_tuple(got[n]) for n in chosen] == [as_tuple(expected[n]) for n in chosen]


@pytest.mark.parametrize("name", sorted(EDGE_CASES) + [p.name for p in SOURCES[::7]])
def test_an_edited_buffer_parsed_in_pieces_gets_the_spans_of_a_whole_codegen(name: str) -> None:
    """The editor's buffer: pieces kept from the keystroke before keep their spans, moved by the
    lines above them (a piece edited or a line added above shifts the rest)."""
    from devlint.lint.parse import PieceParser, parse_module
    import ast

    text = EDGE_CASES.get(name) or next(p for p in SOURCES if p.name == name).read_text(encoding="utf-8")
    parser = PieceParser()
    parser.parse(text, ast.parse(text))  # the version before the keystroke
    newline = "\r\n" if "\r\n" in text else "\r" if "\r" in text else "\n"
    edited = f"import os{newline}{newline}" + text  # every piece moves two lines down
    module = parser.parse(edited, ast.parse(edited))
    nodes = [n for n in walk(module) if n is not module]  # findings sit in statements
    whole = reference(parse_module(edited))
    found = spans_of(module, nodes)
    expected = reference(module)
    assert {as_tuple(found[n]) for n in nodes if n in expected} == {as_tuple(expected[n]) for n in nodes if n in expected}
    assert all(as_tuple(found[n]) == as_tuple(expected[n]) for n in nodes if n in expected)
    assert len(whole) == len(expected)
