from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import Event, Transfer
from devlint.lint.model.values import Module, Optimizer, Place
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code
from devlint.lint.rules.ordering import holds, inside, position, same_scope, spelled_like
from devlint.lint.syntax import dotted, walk

PARAMETER_CALLS = frozenset({"parameters", "named_parameters"})


class OptimizerStateBeforeMove(Rule):
    code = "DEV017"
    name = "optimizer-state-before-move"
    fix_kind = Applicability.UNSAFE
    summary = "An optimizer's state is loaded while its model is on the CPU, and the model moves only afterwards."
    what = """
        Finds `optimizer.load_state_dict(...)` where `optimizer` was built on the parameters of
        a model (`torch.optim.AdamW(model.parameters())`) that is still on the CPU at the load,
        and that the code moves to the device afterwards (`model.to(device)`, `model.cuda()`).
        The optimizer knows its model by identity, not by name: a trainer whose `__init__`
        resumes through a method before it moves `self.model`, or a `trainer.resume()` before
        the caller's `model.to(device)`, is found by the order the run went through them.
    """
    silent = """
        When the model is moved before the load (the usual resume order: build, move, build the
        optimizer, load; a later `model.to("cpu")` and move back, as an out-of-memory handler
        does, changes nothing), when the model is never moved (CPU training), when the optimizer's
        parameters cannot be traced to one model, when the model's move is not proven, when the
        file assigns the optimizer's `state` itself (`optimizer.state = move_to(optimizer.state,
        device)`), and in tests.
    """
    why = """
        `Optimizer.load_state_dict` casts each state tensor (Adam's moments, momentum buffers)
        to the device of its parameter at the time of the load. Loaded while the parameters are
        on the CPU, the state stays there; `model.to(device)` then moves the parameters and not
        the state, and the first `optimizer.step()` of a resumed run fails with "Expected all
        tensors to be on the same device". Only resumed runs fail, so a CI run from scratch
        never sees it.
    """
    bad = """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        ckpt = torch.load("last.pt", map_location="cpu")
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        model.to(device)
    """
    good = """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        ckpt = torch.load("last.pt", map_location="cpu")
        model.load_state_dict(ckpt["model"])
        model.to(device)
        optimizer.load_state_dict(ckpt["optimizer"])
    """
    fix = """
        Load the optimizer's state after the model has moved. The fix moves the
        `optimizer.load_state_dict(...)` line to just after the move (an unsafe fix, offered
        only when both lines are in the same block and nothing between them uses the optimizer
        or rebinds what the load reads).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        for event in model.obs.events:
            if event.kind != "state-load" or id(event.node) in reported:
                continue
            if not event.where.accel or event.where.in_test:
                continue
            name = dotted(event.node.func.value)
            if name and _state_reassigned(model, name):
                continue  # `self.optimizer.state = move_to(self.optimizer.state, device)`
            move = owner = None
            at = position(model, event.node)
            if name and any(target == name for _, target, _ in _assignments(model)):
                owner = self.optimized_model(model, name, at)
            if owner is not None:
                move = self.first_move(model, owner, event, at)
                if move is None and not self.moved_before(model, owner, event, at):
                    move = self.moved_by_caller(model, owner, event)
            if move is None and type(event.subject) is Optimizer:
                move = self.run_moves_after(model, event)
                owner = code(move.receiver) if move is not None else None
            if move is None:
                continue
            reported.add(id(event.node))
            yield self.finding(
                event.node,
                f"`{name}`'s state is loaded while `{owner}` is still on the CPU and `{owner}` "
                f"moves to the device only afterwards (line {{related_line}}): the state stays "
                f"on the CPU and the first `{name}.step()` fails; load it after the move",
                related_node=move.node, related_label="the move",
                fix=self.fix_for(model, event, move, name))

    @staticmethod
    def run_moves_after(model: Model, event: Event) -> Optional[Transfer]:
        """The optimizer's module moved from the CPU to the device after the load, by its first
        move later in the run that loaded it: a trainer whose `__init__` resumes
        through a method before it moves the model, a `trainer.resume()` before the caller's
        `model.to(device)`. The optimizer knows its module by identity, whatever the names."""
        ident = event.subject.params
        first = None
        for move in model.obs.transfers:
            if type(move.before) is not Module or not holds(move.before, ident):
                continue
            # A module made again by the same code between the two is another object (a
            # second `Trainer(...)` that resumes too, a second `run(...)` of the script).
            if model.interpreter.same_run(move, event) and \
                    getattr(move.after, "place", None) is Place.DEVICE and \
                    not model.interpreter.made_between(ident, move, event):
                # moved before the load in this run (`self.q = make_qnet().to(device)`, then
                # `self.load(path)`): the state follows it
                return None
            if model.interpreter.same_run(event, move) and \
                    not model.interpreter.made_between(ident, event, move) and \
                    (first is None or move.seq < first.seq):
                first = move
        # the module's first move after the load starts from the CPU: it was there at the load
        if first is not None and getattr(first.after, "place", None) is Place.DEVICE and \
                first.before.place is Place.HOST and not first.before.assumed:
            return first
        return None

    @staticmethod
    def optimized_model(model: Model, name: str, at: int) -> Optional[str]:
        """The model whose parameters the optimizer `name` was last built on before `at`."""
        found = None
        for where, target, owner in _assignments(model):
            if target == name and where < at:
                found = owner  # None: bound to something else, or to several models' parameters
        return found

    @staticmethod
    def first_move(model: Model, owner: str, event: Event, at: int) -> Optional[Transfer]:
        """The move of the model to the device after the load, when none came before it."""
        later = None
        for move in model.obs.transfers:
            if not spelled_like(move.receiver, owner) or dotted(move.receiver) != owner:
                continue
            if getattr(move.after, "place", None) is not Place.DEVICE:
                continue
            where = position(model, move.node)
            if where < at:
                return None  # moved before the load (on some path): the state follows it
            before = move.before
            if type(before) is not Module or before.place is not Place.HOST or before.assumed:
                return None
            if same_scope(model, event.where, move.node) and (
                    later is None or where < position(model, later.node)):
                later = move
        if later is not None and later.before.ident and any(
                type(move.before) is Module and move.before.ident == later.before.ident and
                getattr(move.after, "place", None) is Place.DEVICE and position(model, move.node) < at
                for move in model.obs.transfers):
            # `net = nn.Linear(4, 4).to(device)` before the load, and `net.to("cpu")` then
            # `net.to(device)` after it (an out-of-memory handler's round trip): the same
            # module was on the device at the load
            return None
        return later

    @staticmethod
    def moved_before(model: Model, owner: str, event: Event, at: int) -> bool:
        """A move of the model to the device before the load, in the load's function."""
        return any(dotted(move.receiver) == owner and position(model, move.node) < at and
                   getattr(move.after, "place", None) is Place.DEVICE and
                   same_scope(model, event.where, move.node) for move in model.obs.transfers)

    @staticmethod
    def moved_by_caller(model: Model, owner: str, event: Event) -> Optional[Transfer]:
        """The load runs in a function that returns the model (`return model, optimizer`, a
        `build()` that restores both); a caller that binds what it returns and moves that model
        afterwards (`model, optimizer = build(); model.to(device)`) moves it after the load."""
        function = event.where.function
        if function is None or function.cls is not None:
            return None
        index = _returned_at(function.node, owner)
        if index is None:
            return None
        for caller in walk(model.module):
            if type(caller) not in (cst.FunctionDef, cst.Module) or caller is function.node:
                continue
            for small in _own_statements(caller):
                bound = _bound_from_call(small, function.name, index)
                if bound is None:
                    continue
                at = position(model, small)
                for move in model.obs.transfers:
                    before = move.before
                    if dotted(move.receiver) == bound and position(model, move.node) > at and \
                            getattr(move.after, "place", None) is Place.DEVICE and \
                            type(before) is Module and before.place is Place.HOST and \
                            not before.assumed and _innermost_function(model, move.node) is caller:
                        return move
        return None

    @staticmethod
    def fix_for(model: Model, event: Event, move: Transfer, name: str) -> Optional[Fix]:
        load, target = event.statement, move.statement
        if load is None or target is None or len(load.body) != 1 or \
                type(load.body[0]) is not cst.Expr or load.body[0].value is not event.node:
            return None
        block = _block_holding(model, load)
        if block is None or not any(s is target for s in block):
            return None
        first = next(i for i, s in enumerate(block) if s is load)
        last = next(i for i, s in enumerate(block) if s is target)
        read = {sub.value for sub in walk(event.node) if type(sub) is cst.Name}
        for between in block[first + 1:last + 1]:
            names = {sub.value for sub in walk(between) if type(sub) is cst.Name}
            if name.split(".", 1)[0] in names and between is not target:
                return None  # the optimizer is used before the move
            if type(between) is not cst.SimpleStatementLine:
                return None
            for small in between.body:
                stored = {sub.value for t in getattr(small, "targets", ())
                          for sub in walk(t.target) if type(sub) is cst.Name}
                if stored & read:
                    return None  # what the load reads is rebound on the way
        text = code(load.body[0])
        if "\n" in text or "\r" in text:
            return None
        comment = load.trailing_whitespace.comment
        if comment is not None:
            text = f"{text}  {comment.value}"  # the line's comment goes with it
        return Fix(f"load `{name}`'s state after the move", Applicability.UNSAFE,
                   (Edit("delete", load), Edit("insert_after", target, text)))


def _assignments(model: Model) -> list:
    """(position, target, model) for every optimizer built and bound to one name, once per
    file: `model` is the one model whose parameters it takes, else None."""
    found = model.shared.get("dev017_assignments")
    if found is not None:
        return found
    found = model.shared["dev017_assignments"] = []
    for event in model.obs.events:
        if event.kind != "optimizer" or event.statement is None:
            continue
        for small in event.statement.body:
            if type(small) is cst.Assign and small.value is event.node and len(small.targets) == 1:
                owners = {dotted(sub.func.value) for sub in walk(event.node.args[0].value)
                          if type(sub) is cst.Call and type(sub.func) is cst.Attribute
                          and sub.func.attr.value in PARAMETER_CALLS}
                owner = owners.pop() if len(owners) == 1 and None not in owners else None
                found.append((position(model, small), dotted(small.targets[0].target), owner))
    found.sort(key=lambda entry: entry[0])
    return found


def _returned_at(function: Any, name: str) -> Optional[int]:
    """Where a function returns `name`: -1 for `return name`, i for the i-th item of a returned
    tuple, None when it does not return it."""
    for node in walk(function):
        if type(node) is not cst.Return or node.value is None:
            continue
        if type(node.value) is cst.Name and node.value.value == name:
            return -1
        if type(node.value) is cst.Tuple:
            for i, element in enumerate(node.value.elements):
                if type(element.value) is cst.Name and element.value.value == name:
                    return i
    return None


def _own_statements(scope: Any) -> list:
    """The small statements of a function (or the module level), not of functions inside it."""
    found, pending = [], [scope]
    while pending:
        node = pending.pop()
        for child in node.children:
            if type(child) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                continue
            if type(child) is cst.Assign:
                found.append(child)
            else:
                pending.append(child)
    return found


def _bound_from_call(assign: Any, function: str, index: int) -> Optional[str]:
    """The name `x, model = build()` binds to what `build` returns at `index` (-1: all of it)."""
    call = assign.value
    if type(call) is not cst.Call or type(call.func) is not cst.Name or call.func.value != function or \
            len(assign.targets) != 1:
        return None
    target = assign.targets[0].target
    if index == -1:
        return target.value if type(target) is cst.Name else None
    if type(target) in (cst.Tuple, cst.List) and index < len(target.elements):
        element = target.elements[index].value
        return element.value if type(element) is cst.Name else None
    return None


def _innermost_function(model: Model, node: Any) -> Any:
    """The function definition (or the module) whose own code holds `node`."""
    found = model.module
    for function in walk(model.module):
        if type(function) is cst.FunctionDef and inside(model, function, node):
            found = function  # the walk is pre-order: an inner definition comes later
    return found


def _block_holding(model: Model, statement: Any) -> Optional[list]:
    for node in walk(model.module):
        body = getattr(node, "body", None)
        if type(node) in (cst.Module, cst.IndentedBlock) and isinstance(body, (list, tuple)) and \
                any(s is statement for s in body):
            return list(body)
    return None


def _state_reassigned(model: Model, name: str) -> bool:
    """The file assigns the optimizer's `state` itself (`self.optimizer.state =
    move_to(self.optimizer.state, self.device)` after the model's move, as EGG's trainer does):
    the code moves the state where it wants it."""
    targets = model.shared.get("dev017_state_targets")
    if targets is None:
        # (the load may be another file's code that this file's run reached: a trainer's `load`)
        trees = [model.module] + [owner.module for owner in model.interpreter.foreign_owners.values()]
        targets = model.shared["dev017_state_targets"] = frozenset(
            dotted(t.target) for tree in trees for sub in walk(tree) if type(sub) is cst.Assign
            for t in sub.targets if (dotted(t.target) or "").endswith(".state"))
    return f"{name}.state" in targets
