"""Fix builders the rules share. A fix may only use names the model saw bound, on every path,
where the fix lands; and it never moves a value that must stay on the host (only tensors the
model proved to meet device tensors are ever moved)."""
from __future__ import annotations

from typing import Iterable, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix
from devlint.lint.model import Model
from devlint.lint.model.observations import Meeting
from devlint.lint.model.values import Device, Module, Tensor
from devlint.lint.syntax import append_keyword, dotted, positional_args

FALLBACK = "torch.device('cuda' if torch.cuda.is_available() else 'cpu')"


def code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def reachable(expr: Optional[str], bound: frozenset) -> bool:
    """`device`, `args.device`, `self.device`: usable where `bound` are the names bound."""
    if not expr:
        return False
    root = expr.split(".", 1)[0]
    return root in bound and all(part.isidentifier() for part in expr.split("."))


def device_of(value, bound: frozenset) -> Optional[str]:
    """How to name the device `value` (a device-side tensor or module) lives on, with names
    bound where the fix goes: the expression it was moved with, else `next(m.parameters())`."""
    device = getattr(value, "device", None)
    if type(device) is Device and reachable(device.spelled, bound):
        return device.spelled
    moved_at = getattr(value, "moved_at", None)
    if moved_at is not None:
        spelled = moved_device(moved_at)
        if reachable(spelled, bound):
            return spelled
    if type(value) is Module and reachable(value.spelled, bound):
        return _module_device(value, value.spelled)
    return None


def _module_device(module: Module, spelled: str) -> str:
    """A module's device: its parameters', or a torchmetrics metric's own `.device` (a metric
    has no parameters, so `next(metric.parameters())` would raise StopIteration)."""
    return f"{spelled}.device" if module.metric else f"next({spelled}.parameters()).device"


def moved_device(call: cst.Call) -> Optional[str]:
    """The device argument of `m.to(device)`, when it is a name or attribute. A cast to a
    tensor type (`imgs.type(Tensor)`, `Tensor = torch.cuda.FloatTensor if cuda else ...`) moves
    the data too, but its argument names a type, not a device."""
    if type(call.func) is cst.Attribute and call.func.attr.value == "type":
        return None
    positional = positional_args(call)
    if positional and type(positional[0].value) in (cst.Name, cst.Attribute):
        return dotted(positional[0].value)
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "device":
            return dotted(arg.value)
    return None


def meeting_device(meeting: Meeting, bound: frozenset) -> Optional[str]:
    """The device a meeting's device side is on, spelled with names bound at the fix."""
    found = device_of(meeting.device.value, bound)
    if found is not None:
        return found
    node = meeting.device.node
    if type(meeting.device.value) is Module:
        spelled = dotted(node) if node is not None else None
        if reachable(spelled, bound):
            return _module_device(meeting.device.value, spelled)
    if type(meeting.device.value) is Tensor and type(node) in (cst.Name, cst.Attribute):
        spelled = dotted(node)
        if reachable(spelled, bound):
            return f"{spelled}.device"
    return None


def first_device(names: Iterable[str], bound: frozenset) -> Optional[str]:
    for name in names:
        if reachable(name, bound):
            return name
    return None


def move_expression(var: str, device: str, dict_like: bool) -> str:
    if dict_like:
        return f"{{k: v.to({device}) for k, v in {var}.items()}}"
    return f"{var}.to({device})"


def batch_fix(meetings: list, model: Model) -> Optional[Fix]:
    """`x, y = x.to(device), y.to(device)` right where the loop (or an unpacking) names them:
    every batch tensor of that binding that meets the device unmoved is moved in one line, so
    the fixes of `x` (DEV002) and `y` (DEV004) are one identical edit, applied once."""
    first = meetings[0]
    if first.host.value.bound is None:
        return None  # the batch got no name devlint can move it under
    name, statement, _ = first.host.value.bound
    anchor = _insertion(statement)
    if anchor is None:
        return None
    action, node = anchor
    bound = model.bound_at(node)
    device = None
    for meeting in meetings:
        device = meeting_device(meeting, bound)
        if device is not None:
            break
    if device is None:
        return None
    chosen: dict[str, bool] = {}
    for meeting in meetings:
        var = meeting.host.value.bound[0]  # bound by the statement the fix follows
        chosen[var] = chosen.get(var, False) or meeting.host.value.dict_like
    targets = ", ".join(chosen)
    values = ", ".join(move_expression(var, device, like) for var, like in chosen.items())
    return Fix(f"move {targets} to {device} where the loader yields them", Applicability.SAFE,
               (Edit(action, node, f"{targets} = {values}"),))


def _insertion(statement) -> Optional[tuple[str, cst.CSTNode]]:
    if type(statement) is cst.For:
        body = statement.body
        if type(body) is cst.IndentedBlock and body.body:
            return "insert_before", body.body[0]
        return None
    if type(statement) is cst.SimpleStatementLine:
        return "insert_after", statement
    return None


def insert_device_line(model: Model) -> Optional[Edit]:
    """`device = torch.device(...)` once, after the imports, when the file has no device."""
    last_import = None
    for statement in model.module.body:
        if type(statement) is cst.SimpleStatementLine and all(
            type(s) in (cst.Import, cst.ImportFrom) for s in statement.body
        ):
            last_import = statement
    env = model.interpreter.module_env
    if last_import is None or type(env.get("torch")).__name__ != "Ref" or "device" in env:
        return None
    return Edit("insert_after", last_import, f"device = {FALLBACK}")


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
