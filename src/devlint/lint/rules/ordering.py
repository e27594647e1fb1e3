"""Source order for the rules that decide "before" and "after" (DEV015-DEV017, DEV020): the
model's values say where a module is at a line; which line comes first is the file's order.
Positions are pre-order indexes of the syntax tree, computed once per file."""
from __future__ import annotations

from typing import Any, Iterator, Optional

from devlint.lint.model import Model
from devlint.lint.syntax import dotted, walk


def position(model: Model, node: Any) -> int:
    """The node's place in the file's order (-1 for a node of another file)."""
    order = model.shared.get("order")
    if order is None:
        order = model.shared["order"] = {id(n): i for i, n in enumerate(walk(model.module))}
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
                 if call is not own and dotted(call.func) not in KEEP_PLACE), None)


# Calls that take a module and move none of it: compiling or scripting wraps it where it is.
KEEP_PLACE = frozenset({"torch.compile", "torch.jit.script", "torch.jit.trace", "print", "len",
                        "isinstance", "id", "repr", "str", "type", "hasattr", "getattr"})


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
