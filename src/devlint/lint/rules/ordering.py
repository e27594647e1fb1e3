"""Source order for the rules that decide "before" and "after" (DEV015-DEV017, DEV020): the
model's values say where a module is at a line; which line comes first is the file's order.
Positions are pre-order indexes of the syntax tree, computed once per file."""
from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from devlint.lint.model import Model
from devlint.lint.model.values import Module
from devlint.lint.syntax import dotted, walk


def position(model: Model, node: Any) -> int:
    """The node's place in the file's order (-1 for a node of another file)."""
    order = model.shared.get("order")
    if order is None:
        order = model.shared["order"] = {id(n): i for i, n in enumerate(walk(model.module))}
    return order.get(id(node), -1)


def position_in(model: Model, scope: Any, node: Any) -> int:
    """The node's place in the order of `scope` (a function's definition, of this file or
    another), -1 outside it: the order of a helper of another file, run for this file's model."""
    cache = model.shared.setdefault("scope_order", {})
    order = cache.get(id(scope))
    if order is None:
        order = cache[id(scope)] = {id(n): i for i, n in enumerate(walk(scope))}
    return order.get(id(node), -1)


def inside(model: Model, outer: Any, node: Any) -> bool:
    """Whether `node` is part of `outer` (a function's definition)."""
    cache = model.shared.setdefault("inside", {})
    ids = cache.get(id(outer))
    if ids is None:
        ids = cache[id(outer)] = frozenset(id(n) for n in walk(outer))
    return id(node) in ids


def same_scope(model: Model, where, node: Any) -> bool:
    """`node` belongs to the function (or the module level) an observation was made in."""
    function = getattr(where.function, "node", None)
    if function is None:
        return position(model, node) >= 0
    return inside(model, function, node)


def passed_after(model: Model, name: str, start: int, own: Any = None) -> Optional[Any]:
    """A call after `start` that takes `name` itself as an argument (`prepare(model)`,
    `Trainer(model)`, a helper), other than `own`: what it does with it is unknown. Not a call
    known to leave a module where it is (`torch.compile(model)`, `print(model)`)."""
    return next((call for call in calls_taking(model, name, start)
                 if call is not own and dotted(call.func) not in KEEP_PLACE and
                 not reads_only(model, call, name)), None)


# Methods through which a helper could move, rebuild or hand on the module it was given.
_MOVING_METHODS = frozenset({"to", "cuda", "cpu", "xpu", "mps", "npu", "type", "apply", "_apply",
                             "to_empty", "half", "float", "double", "bfloat16", "share_memory"})


def reads_only(model: Model, call: Any, name: str) -> bool:
    """`fit(model, loader)` where `fit` is a function of this file that only reads attributes
    of the module, calls its methods or runs it (`model.score(...)`, `model(x)`): the call
    neither moves the module nor hands it to code devlint cannot see."""
    callee = dotted(call.func)
    if not callee or "." in callee:
        return False
    defs = model.shared.get("module_functions")
    if defs is None:
        seen: dict = {}
        for statement in model.module.body:
            if type(statement) is cst.FunctionDef:
                seen[statement.name.value] = statement if statement.name.value not in seen else None
        defs = model.shared["module_functions"] = seen
    function = defs.get(callee)
    if function is None:
        return False
    params = function.params
    positional = list(params.posonly_params) + list(params.params)
    # (a `*args` or `**sampling` of the function takes what no named parameter does: the
    # module given by position or by a parameter's name is bound to that parameter)
    named = {p.name.value for p in list(params.params) + list(params.kwonly_params)}
    parameter = None
    for index, arg in enumerate(call.args):
        if arg.star:
            if parameter is None:
                return False  # `f(*args, model)`: which parameter takes the module is unknown
            continue
        if dotted(arg.value) != name:
            continue
        if arg.keyword is not None:
            if arg.keyword.value not in named:
                return False
            parameter = arg.keyword.value
        elif index < len(positional):
            parameter = positional[index].name.value
        else:
            return False
    if parameter is None:
        return False
    read: set = set()
    uses = []
    for node in walk(function.body):
        if type(node) is cst.Attribute and type(node.value) is cst.Name and \
                node.attr.value not in _MOVING_METHODS:
            read.add(id(node.value))
        elif type(node) is cst.Call and type(node.func) is cst.Name:
            read.add(id(node.func))  # `model(x)`: a forward pass
        elif type(node) is cst.Name and node.value == parameter:
            uses.append(node)
        elif type(node) in (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.Global, cst.Nonlocal):
            return False  # a nested scope may rebind or capture the name
    return all(id(use) in read for use in uses)


# Calls that take a module and move none of it: compiling or scripting wraps it where it is, a
# copy (a target network) leaves the original as it was.
KEEP_PLACE = frozenset({"torch.compile", "torch.jit.script", "torch.jit.trace", "print", "len",
                        "isinstance", "id", "repr", "str", "type", "hasattr", "getattr",
                        "copy.deepcopy", "deepcopy", "copy.copy"})


def calls_taking(model: Model, name: str, start: int) -> Iterator[Any]:
    """The calls after `start` that take `name` itself as an argument, in the file's order
    (read once per file)."""
    calls = model.shared.get("named_arguments")
    if calls is None:
        calls = model.shared["named_arguments"] = [
            (position(model, arg.value), dotted(arg.value), node)
            for node in walk(model.module) if type(node).__name__ == "Call"
            for arg in node.args if type(arg.value).__name__ in ("Name", "Attribute")]
    for where, spelled, call in calls:
        if where > start and spelled == name:
            yield call


def spelled_like(receiver: Any, name: str) -> bool:
    """`model`, `model.fc`, `model.module` of `model`."""
    text = dotted(receiver) or ""
    return text == name or text.startswith(name + ".")


def holds(module: Any, ident: int, depth: int = 3) -> bool:
    """`module` is the module `ident` names, or holds it as a submodule: moving
    `GaussianDiffusion(denoiser)` moves `denoiser` too."""
    if module.ident == ident:
        return True
    return depth > 0 and any(type(value) is Module and holds(value, ident, depth - 1)
                             for _, value in module.attrs)
