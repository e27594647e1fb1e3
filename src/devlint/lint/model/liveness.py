"""The top-level definitions of a module that no run of its project can reach.

devlint runs a function that no code of its own file calls on its own, because another file
may call it. `workspace.liveness` says which top-level functions and classes no other file of
an application names at all; within the module, a definition is live when code outside every
top-level definition names it (a script's `main()` call, `__all__`, a registry dict), when a
live definition names it, or when a decorator may register it. What is left is dead: no path a
program takes runs it (SharpNet's loss classes built only by a loss nothing builds, a copied
`normalize()` that no script calls), so a run of it is no finding.
"""
from __future__ import annotations

from typing import Any

import libcst as cst

from devlint.lint.syntax import dotted, last_part, string_value, walk

# Decorators that register nothing: the function stays as unnamed as it was.
PLAIN_DECORATORS = frozenset({"no_grad", "inference_mode", "enable_grad", "lru_cache", "cache",
                              "wraps", "dataclass", "script", "compile", "staticmethod",
                              "classmethod", "property", "njit", "jit"})
# A module that looks its own names up by string reaches what nothing names: the builtins
# called by their bare names (`globals()[name]`, `eval(args.model)`, `vars()`; not
# `model.eval()`, nor `vars(args)`), and
# these anywhere (`inspect.getmembers(sys.modules[__name__])`, `fire.Fire()`, a module
# `__getattr__`).
DYNAMIC_BUILTINS = frozenset({"globals", "locals", "vars", "eval", "exec"})
DYNAMIC_LOOKUPS = frozenset({"__getattr__", "getmembers", "Fire"})


def dead_nodes(module: cst.Module, unnamed: frozenset, unreachable: frozenset = frozenset()) -> frozenset:
    """ids of every function, class and lambda node inside a top-level definition of `module`
    that no run reaches; `unnamed`: the top-level names no other project file names;
    `unreachable`: module-level statements no run gets to (past a `NameError` every run
    raises), whose names name nothing that runs."""
    tops = [s for s in module.body if type(s) in (cst.FunctionDef, cst.ClassDef)]
    names = [s.name.value for s in tops]
    candidates = {n for n in names if n in unnamed and names.count(n) == 1 and not n.startswith("__")}
    if not candidates:
        return frozenset()
    inside: dict = {}
    total = identifier_counts(module)
    if any(total.get(word) for word in DYNAMIC_LOOKUPS) or _calls_a_dynamic_builtin(module, total):
        return frozenset()
    for top in tops:
        inside[top.name.value] = identifier_counts(top)
    outside = dict(total)
    for counts in inside.values():
        for word, count in counts.items():
            outside[word] = outside.get(word, 0) - count
    for statement in module.body if unreachable else ():
        for node in walk(statement):
            if id(node) in unreachable and type(node) not in (cst.FunctionDef, cst.ClassDef):
                for word, count in identifier_counts(node).items():
                    outside[word] = outside.get(word, 0) - count
    live = {n for n in names if n not in candidates or outside.get(n, 0) > 0}
    live |= {top.name.value for top in tops if not _plainly_decorated(top)}
    pending = list(live)
    while pending:
        for word in inside.get(pending.pop(), ()):
            if word in candidates and word not in live:
                live.add(word)
                pending.append(word)
    dead = [top for top in tops if top.name.value not in live]
    return frozenset(id(node) for top in dead for node in walk(top)
                     if type(node) in (cst.FunctionDef, cst.ClassDef, cst.Lambda))


def only_dead_code_reads(module: cst.Module, node: cst.CSTNode, dead: frozenset) -> bool:
    """Whether `node` is (inside) the value of a module-level `NAME = ...` whose name nothing
    but dead definitions mentions again: `GPU_DEVICE = torch.device("cuda")` in a script whose
    only uses of it are in functions no run reaches places nothing."""
    if not dead:
        return False
    name = None
    for statement in module.body:
        if type(statement) is not cst.SimpleStatementLine:
            continue
        for small in statement.body:
            if type(small) is cst.Assign and len(small.targets) == 1 and \
                    type(small.targets[0].target) is cst.Name and \
                    any(inner is node for inner in walk(small.value)):
                name = small.targets[0].target.value
    if name is None:
        return False
    mentions = identifier_counts(module).get(name, 0) - 1  # (its own binding)
    in_dead = sum(identifier_counts(top).get(name, 0) for top in module.body
                  if type(top) in (cst.FunctionDef, cst.ClassDef) and id(top) in dead)
    return mentions == in_dead


def _calls_a_dynamic_builtin(module: cst.Module, total: dict) -> bool:
    """`globals()`, `eval(name)`, a bare name of DYNAMIC_BUILTINS, anywhere but as an attribute
    (`model.eval()` evaluates a model, not a name), a definition's own name, or a name of a
    function the module defines itself (an LBFGS closure `def eval():` handed to
    `optimizer.step(eval)`); or the module itself read from `sys.modules`."""
    if not any(total.get(word) for word in DYNAMIC_BUILTINS) and not total.get("modules"):
        return False
    excused: set = set()  # ids of names that look nothing up: attributes, definitions' names
    own: set = set()  # the builtins' names the module's code defines itself
    found: list = []
    for node in walk(module):
        kind = type(node)
        if kind is cst.Subscript and dotted(node.value) == "sys.modules":
            return True  # `getattr(sys.modules[__name__], args.command)`
        if kind is cst.Attribute:
            excused.add(id(node.attr))
        elif kind in (cst.FunctionDef, cst.ClassDef):
            excused.add(id(node.name))
            own.add(node.name.value)
        elif kind is cst.Call and type(node.func) is cst.Name and node.func.value == "vars" and node.args:
            excused.add(id(node.func))  # `vars(args)` reads a namespace; only `vars()` the module's
        elif kind is cst.Name and node.value in DYNAMIC_BUILTINS:
            found.append(node)
    # CSI's LBFGS closure `def eval(): ...` handed to `optimizer.step(eval)`: the code's own
    # function, not the builtin
    return any(id(node) not in excused and node.value not in own for node in found)


def identifier_counts(node: Any) -> dict:
    """How often each identifier stands under `node` (a definition's own name included), and
    each string that is one (`getattr(mod, "_encode")`, `__all__`)."""
    counts: dict = {}
    for child in walk(node):
        kind = type(child)
        if kind is cst.Name:
            counts[child.value] = counts.get(child.value, 0) + 1
        elif kind is cst.SimpleString:
            text = string_value(child)
            if text is not None and text.isidentifier():
                counts[text] = counts.get(text, 0) + 1
    return counts


def _plainly_decorated(top: Any) -> bool:
    """No decorator, or only decorators that register nothing (`@torch.no_grad()`)."""
    for decorator in top.decorators:
        expression = decorator.decorator
        if type(expression) is cst.Call:
            expression = expression.func
        if last_part(dotted(expression)) not in PLAIN_DECORATORS:
            return False
    return True
