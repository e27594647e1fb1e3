from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model import torch_api as api
from devlint.lint.model.interpret import after_the_framework_move
from devlint.lint.model.observations import Event
from devlint.lint.model.values import Module, Place, Tensor
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code, device_of
from devlint.lint.rules.ordering import calls_taking, passed_after, position, position_in, reads_only, same_scope
from devlint.lint.syntax import dotted, walk


class ModuleAddedAfterMove(Rule):
    code = "DEV015"
    name = "module-added-after-move"
    fix_kind = Applicability.SAFE
    summary = "A module is added to a model after the model was moved, and never moved itself."
    what = """
        Finds a module with parameters built on the CPU and set on a model that the code has
        already moved to the device (`model.fc = nn.Linear(...)`, `model.classifier = ...`,
        `model.add_module("head", ...)`, `model.layers.append(...)` on a moved `ModuleList`, an
        adapter layer set as an attribute, also into a part of a pretrained model,
        `model.encoder.layer[11].adapter = ...`, or on `self` in a LightningModule's own hook
        that the trainer runs after its move, `on_fit_start`; or into a layer taken from a moved
        `nn.Sequential` or `ModuleList`, `for block in model: block.q = LoRA(block.q)`), where
        nothing moves the model or the new module afterwards.
    """
    silent = """
        When the module is added before the move, built on the device (`nn.Linear(...).to(device)`,
        an adapter whose parameters are made on its base layer's device, `device=w.device`, which
        is where that layer is, unknown when the layer's place is),
        moved afterwards (`model.fc.to(device)`, `model.to(device)` again, or at once where it
        is made: `self.fc = self.fc.to(x.device)` in a `forward` that builds its head lazily), when the model is
        handed to code that may move it after the change (`accelerator.prepare(model)`, a
        `Trainer`, a helper; not a copy, `target = copy.deepcopy(model)`, which leaves it as it
        is), for modules without parameters (`nn.ReLU()`), for an empty
        container or one of such modules only (`model.classifier[-1] = nn.Sequential()`, the
        identity of a feature extractor: what is appended to it later is judged there), for a container of
        layers the model already had (`model.features = nn.Sequential(*model.features[:22])`,
        `nn.Sequential(*list(model.children())[:-1])`: a container has no parameters of its own,
        it is where the modules it is given are), when the model's
        move is not proven (a model of unknown place, one assumed on the device), and in tests.
        `model.reset_classifier(n)` of a class of the project with its own `reset_classifier` is
        what that method does (a new head made `.to(device=ref.device)` is silent).
    """
    why = """
        `model.to(device)` moves the parameters the model has when it runs. A module added
        later brings its own parameters, made on the CPU, and nothing moves them: the first
        forward pass fails at the new layer with "Expected all tensors to be on the same
        device", the classic fine-tuning bug of a replaced head.
    """
    bad = """
        import torch
        import torch.nn as nn
        import torchvision

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torchvision.models.resnet18(weights="DEFAULT")
        model.to(device)
        model.fc = nn.Linear(512, 10)
    """
    good = """
        import torch
        import torch.nn as nn
        import torchvision

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torchvision.models.resnet18(weights="DEFAULT")
        model.fc = nn.Linear(512, 10)
        model.to(device)
    """
    fix = """
        Add the module before moving the model, or move the new module where the model is:
        `model.fc = nn.Linear(512, 10).to(device)` (a safe fix, offered when the device the
        model was moved with is bound there).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        for event in model.obs.events:
            if event.kind != "attach" or id(event.node) in reported:
                continue
            if not event.where.accel or event.where.in_test:
                continue
            owner_node = self.owner_node(event.node)
            name = (dotted(owner_node) or _root_name(owner_node)) if owner_node is not None else None
            at = position(model, event.node)
            moved = self.move_of(model, event, name, at) if name else None
            if moved is None:
                continue
            root = name.split(".", 1)[0]
            if self.moved_later(model, event, name, at, moved):
                continue
            if same_scope(model, event.where, moved):
                if passed_after(model, root, at, event.node):
                    continue
            elif _handed_on(model, moved, event):
                continue
            reported.add(id(event.node))
            new = code(event.other.node.func) if type(event.other.node) is cst.Call else "a module"
            if event.other.node is event.node:  # `model.reset_classifier(10)`: a new head
                new = f"the new head of `{new}(...)`"
            else:
                new = f"`{new}`"
            if type(moved) is cst.FunctionDef:
                yield self.finding(
                    event.node,
                    f"{new} is added to `{name}` in a hook that runs after the trainer moved the "
                    f"module to its device, and nothing moves it: its parameters stay on the CPU "
                    f"and the next forward pass fails at it; make it on the module's device "
                    f"(`.to({root}.device)`)",
                    related_node=moved, related_label="the hook", fix=self.fix_for(event, model))
                continue
            what = (f"`{_moved_name(moved, name)}` was moved" if same_scope(model, event.where, moved)
                    else "the model it is part of was moved by a caller")
            yield self.finding(
                event.node,
                f"{new} is added to `{name}` after {what} to the device (line "
                f"{{related_line}}), and nothing moves it: its parameters stay on the CPU and "
                f"the first forward pass fails at it; add it before the move or move it too",
                related_node=moved, related_label="the move", fix=self.fix_for(event, model))

    @staticmethod
    def owner_node(node: Any) -> Optional[Any]:
        if type(node) in (cst.Attribute, cst.Subscript):
            return node.value
        if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "setattr":
            return node.args[0].value
        if type(node) is cst.Call and type(node.func) is cst.Attribute:
            return node.func.value
        return None

    @staticmethod
    def move_of(model: Model, event: Event, name: str, at: int) -> Optional[Any]:
        """The transfer that put the model on the device, in this function before the change:
        the owner's own, or the last move of the model it is part of (`model.classifier`)."""
        owner = event.subject
        if getattr(owner, "assumed", True):
            return None
        own = owner.moved_at if type(owner) is Module else owner.node if (
            type(owner) is Tensor and owner.why == "moved" and not owner.plain) else None
        if type(own) is cst.Call and same_scope(model, event.where, own) and \
                0 <= position(model, own) < at:
            return own
        function = event.where.function
        if type(owner) is Module and own is None and owner.place is Place.DEVICE and \
                function is not None and owner.node is function.node and \
                type(owner.node) is cst.FunctionDef:
            # `on_train_epoch_start(self, trainer, pl_module)` of a callback: the trainer put
            # the module on its device before any hook of the run
            return owner.node
        if type(owner) is Module and own is None and owner.place is Place.DEVICE and \
                after_the_framework_move(function) and type(function.node) is cst.FunctionDef and \
                function.params and name.split(".", 1)[0] == function.params[0][0]:
            # `self.proj = nn.Sequential(...)` in the module's own `on_fit_start`: the trainer
            # moved the module before the hook
            return function.node
        if type(own) is cst.Call and type(owner) is Module and not same_scope(model, event.where, own) \
                and position(model, own) >= 0 and _only_move(model, own):
            # moved by a caller before it handed the model here (`inject(model)` after
            # `model.to(device)`: the value this run holds carries that move), and never again
            return own
        found, where = None, -1
        for move in model.obs.transfers:
            receiver = dotted(move.receiver)
            here = position(model, move.node)
            if receiver and _covers(receiver, name) and where < here < at and \
                    getattr(move.after, "place", None) is Place.DEVICE and \
                    same_scope(model, event.where, move.node):
                found, where = move.node, here
        return found

    @staticmethod
    def moved_later(model: Model, event: Event, name: str, at: int, moved: Any = None) -> bool:
        ident = getattr(event.subject, "ident", 0)
        # a layer read from a moved container (`for block in model:`) was put on the device by
        # the container's move: moving that container again moves the layer too
        placed_by = getattr(event.subject, "moved_at", None)
        function = getattr(event.where.function, "node", None)
        start = position_in(model, function, event.node) if at < 0 and function is not None else -1
        for move in model.obs.transfers:
            if start >= 0:
                # a forward of another file that this file's model runs (`self.fc = nn.Linear(...)`,
                # then `self.fc = self.fc.to(x.device)`): its own order
                if position_in(model, function, move.node) <= start:
                    continue
            elif position(model, move.node) <= at or move.node is moved:
                continue  # (a caller's move, below the helper that changed the model: before it)
            before, receiver = move.before, dotted(move.receiver) or ""
            if _covers(receiver, name) or receiver.startswith(name + ".") or (
                    ident and type(before) is Module and before.ident == ident) or (
                    placed_by is not None and type(before) is Module and before.moved_at is placed_by):
                return True
        return False

    @staticmethod
    def fix_for(event: Event, model: Model) -> Optional[Fix]:
        """`model.fc = nn.Linear(...)` -> `model.fc = nn.Linear(...).to(device)`."""
        new = event.other.node
        if type(new) is not cst.Call or event.statement is None:
            return None
        statement = event.statement
        if not any(sub is new for sub in _expressions(statement, event.node)):
            return None  # built elsewhere: the move would land far from the change
        device = device_of(event.subject, model.bound_at(event.node))
        if device is None:
            return None
        return Fix(f"move the new module with `.to({device})`", Applicability.SAFE,
                   (Edit("replace", new, f"{code(new)}.to({device})"),))


def _only_move(model: Model, move: Any) -> bool:
    """No other transfer in the file moves what `move` moved (by the name it was moved under):
    with calls between functions, nothing can move the model again after the change."""
    func = getattr(move, "func", None)
    receiver = dotted(func.value) if type(func) is cst.Attribute else None
    own = next((t for t in model.obs.transfers if t.node is move), None)
    ident = getattr(own.after, "ident", 0) if own is not None else 0
    if not receiver and not ident:
        return False
    return not any(other.node is not move and (
        (receiver and dotted(other.receiver) == receiver) or
        (ident and getattr(other.before, "ident", None) == ident))
        for other in model.obs.transfers)


def _handed_on(model: Model, move: Any, event: Event) -> bool:
    """The model a caller moved, then handed to the helper that changed it, is handed to some
    other call after its move (`Trainer(model)`, `accelerator.prepare(model)`): what that does
    with it is unknown. Calls of the helper itself (`inject(model)`) hand it nothing new."""
    helper = event.where.function.name if event.where.function is not None else None
    func = getattr(move, "func", None)
    moved = dotted(func.value) if type(func) is cst.Attribute else None
    if not moved:  # `block = nn.Sequential(...).to(device)`: the name it was bound to
        moved = next((dotted(t.target) for n in walk(model.module) if type(n) is cst.Assign
                      and _returns_moved(n.value, move) for t in n.targets), None)
    if not moved:
        return True
    return any((dotted(call.func) or "").rsplit(".", 1)[-1] != helper and
               not reads_only(model, call, moved)
               for call in calls_taking(model, moved, position(model, move)))


# Module methods that answer the module itself: `Net().to(device).eval()` binds the moved model.
_SELF_ANSWERS = api.SELF_RETURNING_METHODS | {"to", "cuda"}


def _returns_moved(value: Any, move: Any) -> bool:
    """`value` is the move, or a chain of the module's self-answering methods on it."""
    while True:
        if value is move:
            return True
        if type(value) is not cst.Call or type(value.func) is not cst.Attribute or \
                value.func.attr.value not in _SELF_ANSWERS:
            return False
        value = value.func.value


def _root_name(node: Any) -> Optional[str]:
    """`model` of `model.layer4[1]`: the model a chain of attributes and items reaches into."""
    while type(node) in (cst.Attribute, cst.Subscript):
        node = node.value
    return node.value if type(node) is cst.Name else None


def _moved_name(move: Any, name: str) -> str:
    func = getattr(move, "func", None)
    # a model moved as it was built (`Net().to(device)`) is the model the chain starts from
    return (dotted(func.value) if type(func) is cst.Attribute else None) or name.split(".", 1)[0]


def _covers(receiver: str, name: str) -> bool:
    """Moving `receiver` moves `name`: `model` covers `model` and `model.classifier`."""
    return bool(receiver) and (name == receiver or name.startswith(receiver + "."))


def _expressions(statement: Any, node: Any) -> Iterator[Any]:
    """The value assigned to `node` in `statement`, or `add_module`'s module argument."""
    for small in getattr(statement, "body", ()):
        if type(small) is cst.Assign and any(t.target is node for t in small.targets):
            yield small.value
    if type(node) is cst.Call and node.args:
        yield node.args[-1].value  # `add_module(name, m)`, `setattr(model, name, m)`, `append(m)`
