"""What a libcst node's children are, and a walk of a tree the way `CSTNode.visit` does it, at
a fraction of its cost.

libcst's `visit` rebuilds every node it passes (its `_visit_and_replace_children` constructs a
copy even for a read-only `CSTVisitor`), which made a visitor that does nothing cost 60% of
the parse itself. Reading only is enough here: this walk reads each node's child fields in the
order libcst's own walk visits them, calls `visit_<Type>` before the children (a `False`
return skips them, as in libcst) and `leave_<Type>` after, and never enters whitespace and
operator nodes when the visitor has no hook for them. `tests/test_traverse.py` checks that the
hooks run in libcst's order, node for node.

`content_fields` drops the fields whose annotation allows only layout nodes (or no node at
all): the walker reads those only when its visitor has a layout hook, and `syntax.walk`, the
unordered subtree search the facts use, never does.
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


# Most node types a file holds: a process about to fork its workers learns their shapes from
# this once (reading libcst's source, ~30 ms) instead of every worker learning them again.
COMMON_SHAPES = '''
import torch
from torch import nn
@decorator
class Net(nn.Module):
    def __init__(self, *args, size: int = 2, **kwargs) -> None:
        super().__init__()
        self.layers = [nn.Linear(size, size) for _ in range(3) if size > 1]
    async def forward(self, x):
        global counter
        y = x[0, 1:2] * -x.t() @ x ** 2 if x is not None and not False else {"a": 1, **kwargs}
        x += 1; del y
        assert x, f"{x!r:>4}" "b"
        return lambda v=1: (yield v)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
for i, (a, b) in enumerate(loader):
    while i < 3 or i in {1, 2}:
        try:
            with open(a) as f, open(b):
                pass
        except (OSError, ValueError) as exc:
            raise RuntimeError(...) from exc
        else:
            continue
        finally:
            break
x: list[int] = [*a, *b]
z = {k: v for k, v in x.items()}, (1,), 1.5, 2j, b"x", ~1
'''


class Walker:
    """One walker per visitor class: the hooks and child fields of each node type, looked up
    once per type."""

    def __init__(self, visitor_type: type) -> None:
        self.visitor_type = visitor_type
        self._plans: dict[type, tuple] = {}
        hooks = {name for name in dir(visitor_type)
                 if name.startswith(("visit_", "leave_", "on_")) and self._overrides(name)}
        hooked_types = [getattr(cst, name.split("_", 1)[1], None) for name in hooks]
        # Attribute hooks (`visit_Call_func`) and a custom `on_visit` need libcst's own walk.
        self.exact = all(isinstance(t, type) and not name.startswith("on_")
                         for name, t in zip(hooks, hooked_types))
        # Layout subtrees are never entered when no hook could see anything inside them; the
        # test happens in the parent, which saves a call for most nodes of a tree.
        self._skip_layout = not any(is_layout(t) for t in hooked_types if isinstance(t, type))
        self._entered = frozenset(t for t in NODE_TYPES
                                  if not (self._skip_layout and is_layout(t)))

    def _overrides(self, name: str) -> bool:
        return getattr(self.visitor_type, name) is not getattr(cst.CSTVisitor, name, None)

    def run(self, module: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
        if self.exact:
            self.walk(module, visitor)
        else:
            module.visit(visitor)

    def learn(self, module: cst.CSTNode) -> None:
        """Plan now for every node type this walker would enter in `module`."""
        stack = [module]
        while stack:
            node = stack.pop()
            if type(node) not in self._plans:
                self._plan(type(node))
            for name in type(node).__dataclass_fields__:
                value = getattr(node, name)
                items = value if type(value) in (list, tuple) else (value,)
                stack.extend(v for v in items if type(v) in self._entered)

    def walk(self, node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
        """The subtree of `node`, for a visitor with type hooks only (see `exact`)."""
        enter, leave, fields = self._plans.get(type(node)) or self._plan(type(node))
        if fields is None:
            node.visit(visitor)  # a shape this walker does not know: libcst's own walk
            return
        if enter is None or getattr(visitor, enter)(node) is not False:
            entered = self._entered
            for name in fields:
                child = getattr(node, name)
                kind = type(child)
                if kind in entered:
                    self.walk(child, visitor)
                elif kind is list or kind is tuple:
                    for item in child:
                        if type(item) in entered:
                            self.walk(item, visitor)
        if leave is not None:
            getattr(visitor, leave)(node)

    def _plan(self, node_type: type):
        name = node_type.__name__
        enter = f"visit_{name}" if self._overrides(f"visit_{name}") else None
        leave = f"leave_{name}" if self._overrides(f"leave_{name}") else None
        fields = child_fields(node_type)
        if fields is not None and self._skip_layout:
            fields = content_fields(node_type)
        plan = (enter, leave, fields)
        self._plans[node_type] = plan
        return plan
