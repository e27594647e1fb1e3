"""Statements of a function that raise `NameError` whenever they run: no path goes past them.

A scratch test that reads `hm_pred`, which it never binds (another test does, as its own
local), stops there on every machine; the `torch.device(1)` a few lines later is never
reached, so it is no finding. A name is unbound in a function where neither the function
nor a function around it binds it anywhere in its body (an assignment, a parameter, an
import, a `def`, a loop or `with` target, `except ... as`, a walrus, `global`, a `match`
capture; a lambda's and a comprehension's names count too), the module's own code does not
(outside its functions' and classes' bodies, or by a `global` statement), and it is no
builtin: more is taken as bound than Python binds, so a name that can be found is never
called unbound. A module that may bind names unseen (`globals()`, `exec`, `builtins`; not a
method such as `model.eval()`) has none; one with a star import of names devlint cannot list
has none past it. Module-level lines count only in a file that parses its command line: a
program run in a fresh interpreter, not a snippet pasted into a session. A statement raises
only where it evaluates the name on every run of it
(not in a lambda, a comprehension, the right of `and`/`or`, an arm of `x if c else y`, a
nested `def`), and is inside no `try` of its function.
"""
from __future__ import annotations

import builtins
from typing import Any, Callable, Optional

import libcst as cst

from devlint.lint.syntax import content_children, is_main_test, walk

KNOWN = frozenset(dir(builtins)) | frozenset({
    "__file__", "__name__", "__doc__", "__spec__", "__loader__", "__package__", "__path__",
    "__builtins__", "__annotations__", "__dict__", "__class__", "__debug__", "__qualname__",
    "__module__", "reveal_type", "display", "get_ipython", "aiter", "anext", "ExceptionGroup",
    "BaseExceptionGroup", "EncodingWarning", "PythonFinalizationError", "WindowsError",
    # Python 2's: a file that still parses as Python 3 may be run by a Python 2 (MCD_DA's
    # `for t in xrange(args.max_epoch):` trains there)
    "xrange", "unicode", "basestring", "long", "raw_input", "reduce", "unichr", "file",
    "execfile", "cmp", "reload", "buffer", "apply", "intern", "coerce"})
# Ways a module gets names no binding shows.
UNSEEN_BINDINGS = frozenset({"globals", "locals", "vars", "exec", "eval", "builtins",
                             "__builtins__", "setattr", "__import__", "execfile"})
# Conditionally evaluated parts of an expression, and what does not run with the statement.
_SKIPPED = (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp,
            cst.FunctionDef, cst.ClassDef, cst.Annotation, cst.Decorator)


def raising_statements(module: cst.Module, star_names: Optional[Callable] = None,
                       program: bool = False) -> frozenset:
    """ids of the statements of `module` (inside its functions, in its `__main__` block, and
    at its module level where it is a `program`) that raise `NameError` every time they run.
    `star_names(import_from)`: the names a `from x import *` binds (a project module's public
    names), None where that is unknown; without it, a star import leaves every name possibly
    bound. `program`: the module parses its own command line, so `python file.py` runs it in a
    fresh interpreter, not pasted into a session."""
    stars: set = set()
    # `model.eval()` is a method: only the builtins looked up by their bare names bind unseen
    attributes = {id(n.attr) for n in walk(module) if type(n) is cst.Attribute}
    unknown_star = len(module.body)  # the first module-level statement with a star import
    # whose names are unknown: the lines before it run before it binds anything
    for index, statement in enumerate(module.body):
        for n in walk(statement):
            if type(n) is cst.Name and n.value in UNSEEN_BINDINGS and id(n) not in attributes:
                return frozenset()
            if type(n) is cst.ImportFrom and type(n.names) is cst.ImportStar:
                names = star_names(n) if star_names is not None else None
                if names is None:
                    unknown_star = min(unknown_star, index)
                else:
                    stars |= names
    globals_ = _scope_bound(module.body) | {item.name.value for n in walk(module)
                                            if type(n) is cst.Global for item in n.names} | stars
    found: set = set()
    if unknown_star < len(module.body):
        # PFEC_vggprune.py's `sys.path.append(...)` with no `import sys`, two lines above its
        # `from models import *`: a fresh interpreter raises before the star import runs
        if program:
            _scan(module.body[:unknown_star], globals_, found)
        return frozenset(found)
    # A script's `__main__` block runs in a fresh interpreter (`python train.py`), where a name
    # the file never binds raises: `model = CNNText(config)` in an old script whose `from utils
    # import *` binds no `CNNText` stops every machine there. (Lines outside such a block may
    # be pasted into a session that holds the name: a snippet's `train_loader`. A file that
    # parses its command line is no snippet: FPGM's `VGG_cifar/main_cifar_vgg.py` calls
    # `sys.path.append(...)` at its top and never imports `sys`, so every run stops there.)
    if program:
        _scan(module.body, globals_, found)
    else:
        for statement in module.body:
            if type(statement) is cst.If and is_main_test(statement.test) and \
                    type(statement.body) is cst.IndentedBlock:
                _scan(statement.body.body, globals_, found)
    return _in_functions(module, globals_, found)


def _in_functions(module: cst.Module, globals_: set, found: set) -> frozenset:
    """`found` with the statements of `module`'s functions that raise `NameError` every time
    they run, where `globals_` are the names its module level binds."""
    pending = [(node, frozenset()) for node in _defs(module.body)]
    while pending:
        node, enclosing = pending.pop()
        if type(node) is cst.ClassDef:  # a class body's names are no method's
            pending.extend((inner, enclosing) for inner in _defs(node.body.body))
            continue
        own = _scope_bound(node.body.body) | {p.name.value for p in walk(node.params)
                                              if type(p) is cst.Param}
        bound = enclosing | own
        _scan(node.body.body, bound | globals_, found)
        pending.extend((inner, bound) for inner in _defs(node.body.body))
    return frozenset(found)


def _defs(statements: Any) -> list:
    """The functions and classes a scope's statements define, at any depth of its blocks."""
    found = []
    stack = list(statements)
    while stack:
        current = stack.pop()
        if type(current) in (cst.FunctionDef, cst.ClassDef):
            found.append(current)
            continue
        stack.extend(content_children(current))
    return found


# What of a statement runs every time the statement does: a simple line whole, a compound
# statement's header.
_HEADERS = {cst.If: lambda s: [s.test], cst.While: lambda s: [s.test], cst.For: lambda s: [s.iter],
            cst.With: lambda s: [item.item for item in s.items],
            cst.SimpleStatementLine: lambda s: list(s.body)}


def _scan(statements: Any, bound: set, found: set) -> None:
    """The statements among `statements` and their blocks (outside any `try`, nested `def`
    or class) that evaluate an unbound name."""
    for statement in statements:
        header = _HEADERS.get(type(statement))
        if header is None:
            continue  # a `try`, a nested `def` or class, a `match`: not followed
        if any(_evaluates_unbound(part, bound) for part in header(statement)):
            found.add(id(statement))
            continue
        for block in (getattr(statement, "body", None), getattr(statement, "orelse", None)):
            if type(block) in (cst.IndentedBlock, cst.Else):
                _scan(block.body if type(block) is cst.IndentedBlock else block.body.body,
                      bound, found)
            elif type(block) is cst.If:  # an `elif`
                _scan([block], bound, found)


def _evaluates_unbound(node: Any, bound: set) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind in _SKIPPED:
            continue
        if kind is cst.Name:
            if current.value not in bound and current.value not in KNOWN:
                return True
            continue
        if kind is cst.Attribute:
            stack.append(current.value)  # `.attr` is no name lookup
            continue
        if kind is cst.BooleanOperation:
            stack.append(current.left)  # the right runs only on some values of the left
            continue
        if kind is cst.IfExp:
            stack.append(current.test)
            continue
        if kind in (cst.Global, cst.Nonlocal, cst.Import, cst.ImportFrom, cst.Del):
            continue
        if kind is cst.Arg:
            stack.append(current.value)  # a keyword's name is no lookup
            continue
        stack.extend(content_children(current))
    return False


def _scope_bound(statements: Any) -> set:
    """The names a scope's statements bind, its nested functions' and classes' bodies aside
    (a lambda's or a comprehension's names count: more bound is never a false claim)."""
    bound: set = set()
    stack = list(statements)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in (cst.FunctionDef, cst.ClassDef):
            bound.add(node.name.value)
            continue
        stack.extend(content_children(node))
        if kind is cst.Param:
            bound.add(node.name.value)
        elif kind is cst.ImportAlias:
            if node.asname is not None and type(node.asname.name) is cst.Name:
                bound.add(node.asname.name.value)
            else:
                name = node.name
                while type(name) is cst.Attribute:
                    name = name.value
                if type(name) is cst.Name:
                    bound.add(name.value)
        elif kind in (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor,
                      cst.WithItem, cst.NamedExpr, cst.ExceptHandler, cst.ExceptStarHandler):
            target = {cst.AssignTarget: "target", cst.AnnAssign: "target", cst.AugAssign: "target",
                      cst.For: "target", cst.CompFor: "target", cst.WithItem: "asname",
                      cst.NamedExpr: "target", cst.ExceptHandler: "name",
                      cst.ExceptStarHandler: "name"}[kind]
            value = getattr(node, target, None)
            if value is not None:
                bound.update(n.value for n in walk(value) if type(n) is cst.Name)
        elif kind in (cst.Global, cst.Nonlocal):
            bound.update(item.name.value for item in node.names)
        elif kind in (cst.MatchAs, cst.MatchStar) and node.name is not None:
            bound.add(node.name.value)
        elif kind is cst.MatchMapping and node.rest is not None:
            bound.add(node.rest.value)
        elif kind is cst.Del:
            bound.update(n.value for n in walk(node.target) if type(n) is cst.Name)
    return bound
