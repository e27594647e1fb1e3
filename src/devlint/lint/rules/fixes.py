"""Fix builders the rules share: which device expression is in reach, and how to move a batch."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from devlint.lint.facts import Batch, Facts, ModelOnDevice, Scope, UnmovedUse
from devlint.lint.findings import Applicability, Edit, Fix
from devlint.lint.syntax import append_keyword, dotted, is_to_device_call, positional_args

FALLBACK = "torch.device('cuda' if torch.cuda.is_available() else 'cpu')"


def code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def device_of_model(model: ModelOnDevice, scope: Scope, facts: Facts) -> Optional[str]:
    """The device the model was moved to, spelled so that it resolves where the fix goes:
    `device`, `self.device`, `args.device`, or the function's `device` parameter."""
    if model.moved_at is not None and is_to_device_call(model.moved_at):
        positional = positional_args(model.moved_at)
        if positional and isinstance(positional[0].value, (cst.Name, cst.Attribute)):
            expr = dotted(positional[0].value)
            if expr is not None and in_reach(expr, scope, facts):
                return expr
    return device_parameter(scope)


def device_parameter(scope: Scope) -> Optional[str]:
    current: Optional[Scope] = scope
    while current is not None and current.kind == "function":
        for name in ("device", "dev"):
            if name in current.params:
                return name
        current = current.parent
    return None


def in_reach(expr: str, scope: Scope, facts: Facts) -> bool:
    if expr.startswith("self."):
        return scope.class_scope is not None and "self" in scope.params
    return facts.resolve(expr, scope) is not None


def move_expression(var: str, device: str, dict_like: bool) -> str:
    if dict_like:
        return f"{{k: v.to({device}) for k, v in {var}.items()}}"
    return f"{var}.to({device})"


def batch_move_fix(use: UnmovedUse, facts: Facts) -> Optional[Fix]:
    """`x, y = x.to(device), y.to(device)` right where the loop (or an unpacking) binds them.

    Every name of the same binding that reaches the device unmoved is moved in one line, so
    the fixes of `x` (DEV002) and `y` (DEV004) are one identical edit, applied once."""
    batch = use.batch
    device = device_of_model(use.model, batch.loop.scope, facts)
    anchor = _insertion(batch)
    if device is None or anchor is None:
        return None
    siblings = [u for u in facts.unmoved_uses
                if u.batch.bound_at is batch.bound_at and u.early_move is None]
    names: dict[str, bool] = {}
    for sibling in siblings:
        names[sibling.batch.var] = names.get(sibling.batch.var, False) or sibling.dict_like
    targets = ", ".join(names)
    values = ", ".join(move_expression(name, device, dict_like) for name, dict_like in names.items())
    action, node = anchor
    return Fix(
        f"move {targets} to {device} where the loader yields them",
        Applicability.SAFE,
        (Edit(action, node, f"{targets} = {values}"),),
    )


def _insertion(batch: Batch) -> Optional[tuple[str, cst.CSTNode]]:
    bound = batch.bound_at
    if isinstance(bound, cst.For):
        body = bound.body
        if isinstance(body, cst.IndentedBlock) and body.body:
            return "insert_before", body.body[0]
        return None
    if isinstance(bound, cst.SimpleStatementLine):
        return "insert_after", bound
    return None


def insert_device_line(facts: Facts) -> Optional[Edit]:
    """`device = torch.device(...)` once, after the imports, when the file has no device."""
    if facts.last_import is None or facts.module_scope.binds("device"):
        return None
    return Edit("insert_after", facts.last_import, f"device = {FALLBACK}")


def module_device(facts: Facts, scope: Scope) -> Optional[str]:
    parameter = device_parameter(scope)
    if parameter is not None:
        return parameter
    for name in facts.module_devices:
        if "." not in name and facts.resolve(name, scope) is facts.module_scope:
            return name
    return None


def device_in_reach(facts: Facts, scope: Scope) -> Optional[str]:
    """A device expression that resolves in `scope`: a `device` parameter, a module-level
    device variable, `self.device` in a class that sets it, or a local `device`."""
    found = module_device(facts, scope)
    if found is not None:
        return found
    cls = scope.class_scope
    if cls is not None and "self.device" in cls.events and "self" in scope.params:
        return "self.device"
    home = facts.resolve("device", scope)
    return "device" if home is not None and home.kind == "function" else None


def add_keyword_fix(call: cst.Call, keyword: str, description: str) -> Optional[Fix]:
    """`f(a, b)` -> `f(a, b, keyword)`: one minimal edit after the last argument."""
    edit = append_keyword(call, keyword)
    if edit is None:
        return None
    node, text = edit
    return Fix(description, Applicability.SAFE, (Edit("replace", node, text),))


def cuda_method_call_arguments(call: cst.Call) -> Optional[str]:
    """`.cuda()` -> `to(device)`; keyword arguments (non_blocking) are kept; an index is not."""
    if positional_args(call) or any(a.star for a in call.args):
        return None
    keywords = [code(a).rstrip(", ") for a in call.args]
    return ", ".join(keywords)

