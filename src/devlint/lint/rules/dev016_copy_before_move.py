from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model import torch_api as api
from devlint.lint.model.observations import Event
from devlint.lint.model.values import Module, Place
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code, moved_device, reachable
from devlint.lint.rules.ordering import calls_taking, holds, position, spelled_like
from devlint.lint.syntax import dotted, walk

SELF_RETURNING = frozenset({"eval", "train", "requires_grad_", "float", "half", "double"})
PARAMETER_CALLS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers"})
# Builtins that walk or measure what they are given and move nothing (`zip(clients, shards)`).
WALKING_BUILTINS = frozenset({"zip", "enumerate", "len", "iter", "reversed", "list", "tuple",
                              "isinstance", "print", "sorted"})


class CopyBeforeMove(Rule):
    code = "DEV016"
    name = "copy-before-move"
    fix_kind = Applicability.SAFE
    summary = "A copy of a model taken before the model moved is never moved, but meets device tensors."
    what = """
        Finds `ema = copy.deepcopy(model)` (an EMA model, a teacher, a target network; also
        a list of copies, `clients = [copy.deepcopy(model) for _ in range(n)]`) taken
        while `model` is on the CPU, when `model` is moved to the device afterwards (also by
        accelerate's `prepare`, which places what it is given, or by moving a wrapper that holds
        it, `Diffusion(model).to(device)`), the copy
        never is, and the copy then meets device tensors: it is called with them, or its
        parameters are updated from the model's (`ema_p.mul_(d).add_(p, ...)`, also in a helper
        of the file it is handed to, `ema_update(ema, model)`, or its `state_dict()` tensors
        updated in place; also a copy handed straight to a class of the file that keeps it,
        `EMA(copy.deepcopy(model), 0.99)`, whose `update` walks `self.shadow.parameters()`). A copy made in another file's code (a `build_models()` that returns
        a student and its teacher) is found by the order the importer's run went through the
        files. torch's
        `AveragedModel(model)` (SWA, EMA) is such a copy too, unless it is given a `device`.
    """
    silent = """
        When the copy is taken after the move (it is made where the model is), when the copy is
        moved itself (`ema.to(device)`, `copy.deepcopy(model).to(device)`), when it is handed to
        code of another file that may move it, when it only meets CPU tensors, when the
        model's move is not proven, and in tests.
    """
    why = """
        `copy.deepcopy` copies the parameters where they are at that moment. Moving the model
        afterwards moves its own parameters only: the copy's stay on the CPU, and the first
        EMA update or the first teacher forward pass on device inputs fails with "Expected all
        tensors to be on the same device".
    """
    bad = """
        import copy
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2)
        teacher = copy.deepcopy(model)
        model.to(device)
        x = torch.randn(8, 4, device=device)
        soft = teacher(x)
    """
    good = """
        import copy
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2)
        model.to(device)
        teacher = copy.deepcopy(model)
        x = torch.randn(8, 4, device=device)
        soft = teacher(x)
    """
    fix = """
        Copy after the move, or move the copy with the model:
        `teacher = copy.deepcopy(model).to(device)` (a safe fix, offered when the device the
        model is moved with is bound at the copy).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        for event in model.obs.events:
            if event.kind != "copy" or not event.where.accel or event.where.in_test:
                continue
            source, copied = event.subject, event.other
            if type(source) is not Module or source.place is not Place.HOST or source.assumed:
                continue
            at = position(model, event.node)
            move = self.later_move(model, source, event, at)
            # a copy made in another file's code that this file's run went through: its name
            # is that file's, and only what the run did with the copy itself counts
            assigned = _assigned_name(event)
            name = assigned if at >= 0 else None
            if move is None or self.moved(model, copied, name) or \
                    (at >= 0 and self.handed_on(model, name, at, event.node, event.statement)):
                continue
            use = self.device_use(model, copied, name)
            if use is None:
                continue
            yield self.finding(
                event.node,
                f"`{assigned or code(event.node)}` is copied from `{code(event.node.args[0].value)}` "
                f"while it is on the CPU and only the original is moved afterwards: the copy "
                f"meets device tensors at line {{related_line}}; move the copy too, or copy "
                f"after the move",
                related_node=use, related_label="the copy meets device tensors",
                fix=self.fix_for(event, move, model))

    @staticmethod
    def later_move(model: Model, source: Module, copy: Event, at: int):
        """The move of `source` after the copy: a transfer, or accelerate's `prepare` (an
        Event, whose node is the `prepare` call). After it in the file's order, or, where
        either is another file's code, later in the same run."""
        def after(observed) -> bool:
            where = position(model, observed.node)
            if at >= 0 and where >= 0:
                return where > at
            return model.interpreter.same_run(copy, observed)

        for move in model.obs.transfers:
            before = move.before
            if type(before) is Module and source.ident and holds(before, source.ident) and \
                    getattr(move.after, "place", None) is Place.DEVICE and after(move):
                return move
        for event in model.obs.events:
            if event.kind == "prepare" and source.ident and event.subject.ident == source.ident and \
                    after(event):
                return event
        return None

    @staticmethod
    def moved(model: Model, copied: Module, name: Optional[str]) -> bool:
        for move in model.obs.transfers:
            before = move.before
            if type(before) is Module and before.ident == copied.ident:
                return True
            if name and spelled_like(move.receiver, name):
                return True
        return False

    @staticmethod
    def handed_on(model: Model, name: Optional[str], at: int, copy: Any = None,
                  statement: Any = None) -> bool:
        """Passed to code devlint does not run (a helper of another file, `prepare`). Code of
        the file runs: its functions and its classes (`EMA(copy.deepcopy(model), 0.99)`
        keeps the copy as `self.shadow`, where the model's run follows it)."""
        local = model.shared.get("local_functions")
        if local is None:
            local = model.shared["local_functions"] = frozenset(
                node.name.value for node in walk(model.module)
                if type(node) in (cst.FunctionDef, cst.ClassDef))
        if not name:
            # the copy itself handed to a call of its statement (no name to follow): handed on
            # unless the call is the file's own code
            for node in walk(statement if statement is not None else model.module):
                if type(node) is cst.Call and any(arg.value is copy for arg in node.args):
                    callee = dotted(node.func) or ""
                    return callee.rsplit(".", 1)[-1] not in local
            return True
        for node in calls_taking(model, name, at):
            callee = dotted(node.func) or ""
            if callee.rsplit(".", 1)[-1] not in local and callee not in WALKING_BUILTINS and \
                    _qualname(model, callee) not in api.MODULE_KEEPING_CALLS:
                return True
        return False

    @staticmethod
    def device_use(model: Model, copied: Module, name: Optional[str]) -> Optional[Any]:
        """Where the copy meets device tensors: called with them, or its parameters updated
        from device ones in a loop over them."""
        for event in model.obs.events:
            if event.kind == "host-call" and event.subject.ident == copied.ident:
                return event.node
        for meeting in model.obs.meetings:
            host = meeting.host.value
            if getattr(host, "why", None) != "param" or host.place is not Place.HOST:
                continue
            if copied.ident and getattr(host, "owner", 0) == copied.ident:
                # the copy's own tensors (`ema.state_dict()[k].mul_(d)`, `self.shadow`'s
                # parameters of an EMA object the copy was handed to)
                return meeting.node
            if not name:
                continue
            for loop in meeting.where.loops:
                iterated = getattr(loop.node, "iter", None)
                if iterated is not None and (_walks_parameters_of(iterated, name) or
                                             _handed_as(model, meeting.where.function, iterated, name)):
                    return meeting.node
        return None

    @staticmethod
    def fix_for(event: Event, move, model: Model) -> Optional[Fix]:
        if type(move) is Event or position(model, event.node) < 0:
            return None  # moved by `prepare`: no device name to move the copy to
        device = moved_device(move.node)
        if not reachable(device, model.bound_at(event.node)):
            return None
        return Fix(f"move the copy with `.to({device})`", Applicability.SAFE,
                   (Edit("replace", event.node, f"{code(event.node)}.to({device})"),))


def _assigned_name(event: Event) -> Optional[str]:
    """`ema` of `ema = copy.deepcopy(model)`."""
    for small in getattr(event.statement, "body", ()):
        if type(small) is not cst.Assign or len(small.targets) != 1:
            continue
        value = small.value
        if type(value) in (cst.ListComp, cst.GeneratorExp) or \
                (type(value) is cst.Call and dotted(value.func) in ("list", "tuple") and len(value.args) == 1
                 and type(value.args[0].value) is cst.GeneratorExp):
            # `clients = [copy.deepcopy(model) for _ in range(n)]`: the list holds the copies
            value = (value.args[0].value if type(value) is cst.Call else value).elt
        while value is not event.node and type(value) is cst.Call and \
                type(value.func) is cst.Attribute and value.func.attr.value in SELF_RETURNING:
            value = value.func.value  # `copy.deepcopy(model).eval()`
        if value is event.node:
            return dotted(small.targets[0].target)
    return None


def _qualname(model: Model, callee: str) -> str:
    """`update_bn` of `from torch.optim.swa_utils import update_bn`: what the file imported."""
    head, _, rest = callee.partition(".")
    bound = model.interpreter.module_env.get(head)
    if type(bound).__name__ != "Ref":
        return callee
    return f"{bound.qualname}.{rest}" if rest else bound.qualname


def _handed_as(model: Model, function: Any, iterated: Any, name: str) -> bool:
    """`ema_update(ema, model)` with `def ema_update(ema_model, model)` walking
    `ema_model.parameters()`: a function of this file the copy is handed to walks its
    parameters."""
    node = getattr(function, "node", None)
    if type(node) is not cst.FunctionDef:
        return False
    params = [p.name.value for p in node.params.params]
    walked = {p for p in params if _walks_parameters_of(iterated, p)}
    if not walked:
        return False
    for call in calls_taking(model, name, -1):
        if type(call.func) is not cst.Name or call.func.value != node.name.value:
            continue
        for i, arg in enumerate(call.args):
            param = arg.keyword.value if arg.keyword is not None else params[i] if i < len(params) else None
            if param in walked and dotted(arg.value) == name:
                return True
    return False


def _walks_parameters_of(iterated: Any, name: str) -> bool:
    return any(type(sub) is cst.Call and type(sub.func) is cst.Attribute and
               sub.func.attr.value in PARAMETER_CALLS and dotted(sub.func.value) == name
               for sub in walk(iterated))

