"""What a libcst node's children are, without libcst's own walk (its `visit` rebuilds every
node it passes, which costs more than half a parse).

`child_fields` reads each node type's child fields in the order libcst's walk visits them, from
libcst's own `_visit_and_replace_children`; `content_fields` drops the fields whose annotation
allows only layout nodes (or no node at all). `syntax.walk` and the interpreter read only those.
"""
from __future__ import annotations

import ast
import collections.abc
import functools
import inspect
import linecache
import textwrap
import typing
from typing import Optional

import libcst as cst
from libcst._nodes import op as _op_nodes
from libcst._nodes import whitespace as _whitespace_nodes


def _all_node_types() -> frozenset[type]:
    found, pending = set(), [cst.CSTNode]
    while pending:
        kind = pending.pop()
        pending.extend(kind.__subclasses__())
        found.add(kind)
    return frozenset(found)


# `type(x) in NODE_TYPES` is a set lookup; `isinstance(x, cst.CSTNode)` goes through the ABC
# machinery and was a fifth of the facts pass.
NODE_TYPES = _all_node_types()

# Modules whose nodes hold only layout (spaces, comments, commas, operators' tokens), and the
# bracket nodes, which hold only such nodes.
_LAYOUT_MODULES = (_whitespace_nodes.__name__, _op_nodes.__name__)
_BRACKETS = (cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket,
             cst.LeftCurlyBrace, cst.RightCurlyBrace)


def is_layout(node_type: type) -> bool:
    return node_type.__module__ in _LAYOUT_MODULES or node_type in _BRACKETS


@functools.lru_cache(maxsize=None)
def content_fields(node_type: type) -> tuple[str, ...]:
    """The fields that can hold a node other than layout, in libcst's visit order where it is
    known. A field whose annotation this cannot read is kept."""
    order = child_fields(node_type)
    if order is None:
        order = tuple(getattr(node_type, "__dataclass_fields__", ()))
    try:
        hints = typing.get_type_hints(node_type)
    except Exception:  # an annotation that does not resolve: keep every field
        return order
    kept = []
    for name in order:
        classes = _node_classes(hints[name]) if name in hints else None
        if classes is None or not all(is_layout(c) for c in classes):
            kept.append(name)
    return tuple(kept)


def _node_classes(hint) -> Optional[list[type]]:
    """The node classes an annotation allows (none for `str`, `MaybeSentinel`...); None when
    the annotation is not one of the shapes libcst uses."""
    origin = typing.get_origin(hint)
    if origin is None:
        if hint is None or hint is type(None):
            return []
        if isinstance(hint, type):
            return [hint] if issubclass(hint, cst.CSTNode) else []
        return None
    if origin is typing.Literal:
        return []
    if origin in (typing.Union, collections.abc.Sequence, list, tuple):
        found: list[type] = []
        for argument in typing.get_args(hint):
            classes = [] if argument is Ellipsis else _node_classes(argument)
            if classes is None:
                return None
            found += classes
        return found
    return None
_VISIT_HELPERS = {"visit_required", "visit_optional", "visit_sentinel", "visit_sequence",
                  "visit_body_sequence", "visit_iterable"}


def child_fields(node_type: type) -> Optional[tuple[str, ...]]:
    """The fields `node_type._visit_and_replace_children` visits, in its order; None when its
    code is not the usual `return Type(field=visit_x(self, "field", ...), ...)` (or
    `return self`, a node without children)."""
    try:
        function = _parsed_method(node_type._visit_and_replace_children)
    except (OSError, TypeError, SyntaxError, IndexError, AttributeError):
        return None
    if not isinstance(function, ast.FunctionDef):
        return None
    last = function.body[-1]
    if isinstance(last, ast.Return) and isinstance(last.value, ast.Name) and last.value.id == "self":
        return ()
    rebuilds = [node for node in ast.walk(function) if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name) and node.func.id == node_type.__name__]
    if len(rebuilds) != 1 or rebuilds[0].args:
        return None
    fields = []
    for keyword in rebuilds[0].keywords:
        visited = {call.args[1].value for call in ast.walk(keyword.value)
                   if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                   and call.func.id in _VISIT_HELPERS and len(call.args) >= 2
                   and isinstance(call.args[1], ast.Constant)}
        if visited == {keyword.arg}:
            fields.append(keyword.arg)
        elif visited:
            return None  # a field visited under another name: an order this reader cannot see
    return tuple(fields)


def _parsed_method(method) -> ast.stmt:
    """The method's definition, read as the lines indented under its `def` (5x faster than
    inspect.getsource, which tokenizes; a process reads about a hundred of these). A block this
    cannot cut cleanly falls back to inspect."""
    code = method.__code__
    lines = linecache.getlines(code.co_filename)
    first = code.co_firstlineno - 1
    indent = len(lines[first]) - len(lines[first].lstrip())
    last = first + 1
    while last < len(lines) and (not lines[last].strip()
                                 or len(lines[last]) - len(lines[last].lstrip()) > indent):
        last += 1
    try:
        return ast.parse(textwrap.dedent("".join(lines[first:last]))).body[0]
    except SyntaxError:
        return ast.parse(textwrap.dedent(inspect.getsource(method))).body[0]
