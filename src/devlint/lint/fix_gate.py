"""The gate every fix passes before it is offered: the fixed text must parse, and every name the
fix brings in must be bound where it lands, on every path that reaches it.

Rules pick a device expression from what they know about the file (`device`, `args.device`, a
parameter); this module checks the result on the fixed text itself, with CPython's `ast`, so
it stays a safety net whatever the rules become. "Bound on every path" is decided
conservatively, in source order:

- a parameter of the function the name lands in (or of an enclosing one);
- a binding by a statement that precedes the landing point in an enclosing block and is not
  confined to a branch, loop body, `try` or `with` arm that does not also contain the point
  (an `if`/`else` whose arms all bind, or end in `raise`/`return`, counts as binding);
- the target of the `for`, `with` or `except` whose body holds the point;
- a builtin.

A name bound later in the file never counts, not even for a function that only runs later:
that is the NameError a "safe" fix must never introduce. A name the edit merely carries over
from the text it replaces (`x.to(d)` -> `x = x.to(d)`) was there before the fix, so it is not
the fix's to prove.
"""
from __future__ import annotations

import ast
import builtins
import warnings
from bisect import bisect_right
from typing import Iterator, Optional, Sequence

from devlint.core.findings import TextEdit
from devlint.core.lines import line_starts

_BUILTINS = frozenset(dir(builtins))
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_EXIT_CALLS = frozenset({"exit", "quit", "sys.exit", "os._exit"})


def refusal(text: str, edits: Sequence[TextEdit]) -> Optional[str]:
    """Why the fix made of `edits` (offsets into `text`) may not be offered, or None."""
    fixed, landed = _splice(text, edits)
    tree = _parse(fixed)
    if tree is None:
        return "the fixed code would not parse"
    starts = line_starts(fixed)
    for start, end, carried in landed:
        first, last = _point(fixed, starts, start), _point(fixed, starts, end)
        for chain in _names_within(tree, first, last):
            name = chain[-1].id
            if name not in carried and not _bound(chain, name):
                return f"`{name}` is not bound on every path to where the fix puts it"
    return None


def _splice(text: str, edits: Sequence[TextEdit]) -> tuple[str, list[tuple[int, int, frozenset]]]:
    """The fixed text and, for each edit, the span of its new text there and the names of the
    text it replaced."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    parts: list[str] = []
    landed = []
    cursor = shift = 0
    for edit in ordered:
        parts.append(text[cursor:edit.start])
        parts.append(edit.text)
        at = edit.start + shift
        landed.append((at, at + len(edit.text), _names_in(text[edit.start:edit.end])))
        shift += len(edit.text) - (edit.end - edit.start)
        cursor = edit.end
    parts.append(text[cursor:])
    return "".join(parts), landed


def _parse(text: str) -> Optional[ast.Module]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _names_in(fragment: str) -> frozenset:
    """The names a replaced span held, when it parses on its own (a call, a statement)."""
    tree = _parse(fragment.strip()) if fragment.strip() else None
    if tree is None:
        return frozenset()
    return frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))


def _point(text: str, starts: list[int], offset: int) -> tuple[int, int]:
    """(line, UTF-8 column) of a character offset: how `ast` positions nodes."""
    line = bisect_right(starts, offset)
    return line, len(text[starts[line - 1]:offset].encode("utf-8"))


def _names_within(tree: ast.AST, first: tuple[int, int], last: tuple[int, int]) -> Iterator[list]:
    """The chain of nodes from the module down to each loaded name that starts in [first, last),
    visiting only the nodes whose lines overlap the span."""
    stack: list[tuple[ast.AST, list]] = [(tree, [tree])]
    while stack:
        node, chain = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if first <= (node.lineno, node.col_offset) < last:
                yield chain
            continue
        for child in ast.iter_child_nodes(node):
            lineno = getattr(child, "lineno", None)
            if lineno is not None and (child.end_lineno < first[0] or lineno > last[0]):
                continue
            stack.append((child, chain + [child]))


# --- is `name` bound at the end of `chain`, on every path? ------------------------------------


def _bound(chain: list, name: str) -> bool:
    """Python's scoping, innermost first: each scope either binds `name` (then it must be bound
    there before the point), or hands the question to the scope around it, with the statement
    that opens the inner scope as the new point."""
    point = len(chain) - 1  # where, in the scope being asked, the name is needed
    in_function = False  # a class body is invisible from the functions inside it
    for depth in range(len(chain) - 2, -1, -1):
        node, inner = chain[depth], chain[depth + 1]
        if isinstance(node, _COMPREHENSIONS):
            if inner is not node.generators[0].iter and name in _comprehension_targets(node):
                return True
            in_function = True
        elif isinstance(node, ast.Lambda):
            if name in _parameters(node.args):
                return True
            point, in_function = depth, True
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if _in_body(node, inner):
                if name in _parameters(node.args):
                    return True
                if _declared(node, name, ast.Global):
                    return _bound_in_block(chain[:2], name) or name in _BUILTINS
                if not _declared(node, name, ast.Nonlocal) and _binds_anywhere(node, name):
                    return _bound_in_block(chain[depth:point + 1], name)
                in_function = True
            point = depth  # defaults, annotations, decorators: evaluated around the def
        elif isinstance(node, ast.ClassDef):
            if _in_body(node, inner) and not in_function and _bound_in_block(
                    chain[depth:point + 1], name):
                return True
            point = depth
        elif isinstance(node, ast.Module):
            return _bound_in_block(chain[:point + 1], name) or name in _BUILTINS
    return False


def _in_body(node: ast.AST, child: ast.AST) -> bool:
    return any(statement is child for statement in node.body)


def _bound_in_block(chain: list, name: str) -> bool:
    """Bound at the end of `chain`, walking its statements from the scope at chain[0] down."""
    for parent, child in zip(chain, chain[1:]):
        if _opens_with(parent, child, name):
            return True
        for siblings in _statement_lists(parent):
            if child in siblings:
                index = next(i for i, s in enumerate(siblings) if s is child)
                if _block_binds(siblings[:index], name):
                    return True
        if isinstance(parent, ast.Try) and child in parent.orelse and _block_binds(parent.body, name):
            return True  # `else:` runs after the body completed
    return False


def _opens_with(parent: ast.AST, child: ast.AST, name: str) -> bool:
    """The `for x in ...:`, `with ... as x:` or `except E as x:` whose body holds the point."""
    if isinstance(parent, (ast.For, ast.AsyncFor)) and child in parent.body:
        return name in _stored(parent.target)
    if isinstance(parent, (ast.With, ast.AsyncWith)) and child in parent.body:
        return any(item.optional_vars is not None and name in _stored(item.optional_vars)
                   for item in parent.items)
    if isinstance(parent, ast.ExceptHandler) and child in parent.body:
        return parent.name == name
    return False


def _statement_lists(node: ast.AST) -> Iterator[list]:
    for field in ("body", "orelse", "finalbody"):
        value = getattr(node, field, None)
        if isinstance(value, list):
            yield value


def _block_binds(statements: list, name: str) -> bool:
    bound = False
    for statement in statements:
        if _exits(statement):
            return True  # no path goes on from here
        if isinstance(statement, ast.Delete) and any(name in _stored(t, ast.Del) for t in statement.targets):
            bound = False
        elif _statement_binds(statement, name):
            bound = True
    return bound


def _statement_binds(statement: ast.stmt, name: str) -> bool:
    if isinstance(statement, ast.Assign):
        return any(name in _stored(target) for target in statement.targets)
    if isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
        has_value = not isinstance(statement, ast.AnnAssign) or statement.value is not None
        return has_value and name in _stored(statement.target)
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return any((alias.asname or alias.name.split(".")[0]) == name
                   for alias in statement.names if alias.name != "*")
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.name == name
    if isinstance(statement, ast.If):
        return bool(statement.orelse) and _block_binds(statement.body, name) and _block_binds(
            statement.orelse, name)
    if isinstance(statement, ast.Try) or type(statement).__name__ == "TryStar":
        if _block_binds(statement.finalbody, name):
            return True
        return _block_binds(statement.body + statement.orelse, name) and all(
            _block_binds(handler.body, name) for handler in statement.handlers)
    return False  # loops, `with`, `match`: a body that may not run, or not to its end


def _exits(statement: ast.stmt) -> bool:
    if isinstance(statement, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        return _dotted(statement.value.func) in _EXIT_CALLS
    return False


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _stored(target: ast.AST, context: type = ast.Store) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, context)}


def _parameters(arguments: ast.arguments) -> set[str]:
    every = arguments.posonlyargs + arguments.args + arguments.kwonlyargs
    every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return {a.arg for a in every}


def _comprehension_targets(node: ast.AST) -> set[str]:
    return {name for generator in node.generators for name in _stored(generator.target)}


def _declared(function: ast.AST, name: str, kind: type) -> bool:
    return any(isinstance(n, kind) and name in n.names for n in _own_nodes(function))


def _binds_anywhere(function: ast.AST, name: str) -> bool:
    """Does the function make `name` local: any binding in its own body, nested scopes aside."""
    for node in _own_nodes(function):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id == name:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name.split(".")[0]) == name for a in node.names):
            return True
        if isinstance(node, ast.ExceptHandler) and node.name == name:
            return True
    return False


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, not descending into nested functions, classes, lambdas
    or comprehensions (the nested defs themselves are yielded: their names bind here)."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            stack.extend(node.decorator_list if not isinstance(node, ast.Lambda) else [])
            continue
        if isinstance(node, _COMPREHENSIONS):
            stack.append(node.generators[0].iter)
            continue
        stack.extend(ast.iter_child_nodes(node))
