"""The child fields devlint reads must be libcst's, in libcst's order."""
from __future__ import annotations

import functools
import inspect
from pathlib import Path

import libcst as cst

from conftest import python_sources
from devlint.lint.traverse import child_fields

ROOT = Path(__file__).resolve().parent.parent
SOURCES = python_sources()
NODE_TYPES = [t for t in vars(cst).values() if isinstance(t, type) and issubclass(t, cst.CSTNode)
              and not inspect.isabstract(t)]


@functools.lru_cache(maxsize=None)
def parsed(path: Path) -> cst.Module:
    return cst.parse_module(path.read_text(encoding="utf-8"))


def test_every_node_type_with_children_has_a_known_field_order() -> None:
    unknown = [t.__name__ for t in NODE_TYPES
               if child_fields(t) is None and not t.__module__.endswith(("whitespace", "op"))]
    assert unknown == []


def test_reading_a_method_by_indentation_gives_inspects_definition() -> None:
    import ast
    import textwrap

    from devlint.lint.traverse import _parsed_method

    for node_type in NODE_TYPES:
        method = node_type._visit_and_replace_children
        expected = ast.parse(textwrap.dedent(inspect.getsource(method))).body[0]
        assert ast.dump(_parsed_method(method)) == ast.dump(expected), node_type.__name__


def every_node(module: cst.Module):
    """(node, field name, child) through every dataclass field, layout included."""
    import dataclasses

    stack = [module]
    while stack:
        node = stack.pop()
        for field in dataclasses.fields(node):
            value = getattr(node, field.name)
            for child in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(child, cst.CSTNode):
                    yield node, field.name, child
                    stack.append(child)


def test_fields_left_out_of_the_content_hold_only_layout() -> None:
    """content_fields reads libcst's annotations; on real trees, what the dropped fields hold
    must be layout (whitespace, operators, brackets) or no node at all."""
    from devlint.lint.traverse import content_fields, is_layout

    dropped_seen = 0
    for path in SOURCES:
        for node, name, child in every_node(parsed(path)):
            if name not in content_fields(type(node)):
                dropped_seen += 1
                assert is_layout(type(child)), (path, type(node), name)
    assert dropped_seen > 1000  # the check saw real layout fields


def test_the_content_walk_reaches_every_content_node() -> None:
    from devlint.lint.syntax import walk
    from devlint.lint.traverse import is_layout

    for path in SOURCES[:40]:
        module = parsed(path)
        content = {id(child) for _, _, child in every_node(module) if not is_layout(type(child))}
        assert content <= {id(n) for n in walk(module)}, path
