from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.evaluate import host_weight
from devlint.lint.model.interpret import after_the_framework_move, holds_state
from devlint.lint.model.observations import LossBuilt
from devlint.lint.model.values import Module, Place
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code, first_device
from devlint.lint.syntax import dotted, walk


class LossWeightOnCpu(Rule):
    code = "DEV012"
    name = "loss-weight-on-cpu"
    fix_kind = Applicability.SAFE
    summary = "A loss built with a CPU `weight=`/`pos_weight=` tensor and never moved."
    what = """
        Finds a loss module (`nn.CrossEntropyLoss`, `nn.NLLLoss`, `nn.BCEWithLogitsLoss`, ...) built
        with a `weight=`, `pos_weight=` (or first positional) tensor that is on the CPU at that
        point (a factory without `device=`, directly, through a variable or computed from one), when
        the loss meets the device model's output, or is never moved (`criterion.to(device)`,
        `.cuda()`, or `.to(device)` on the constructor) in a file that moves a model to a device.
        Also a loss module of the file's own (`class CenterLoss(nn.Module)` with learnable
        centers) that holds parameters or buffers, is never moved, and is called with tensors on
        the device. And a weighted loss that a Lightning module builds and stores on `self` in a
        hook the trainer runs after it moved the module (`on_fit_start`, `on_train_start`): that
        move is over, so the loss's weight stays on the CPU.
    """
    silent = """
        For 0-dim weights (a BCE loss's `weight` or `pos_weight` broadcasts, so one made from a
        value of unknown rank, `torch.tensor(neg / pos)`, may be 0-dim), for losses stored on an `nn.Module` (`self.criterion = ...` in a
        model's `__init__` or Lightning's `setup`, before the trainer's move, or
        `model.criterion = loss` from outside, registers the loss, so
        `model.to(device)` moves its weight), for a loss registered in an `nn.ModuleDict`,
        `nn.ModuleList` or `nn.Sequential` that is moved, and for a loss moved after paths joined
        (`criterion` weighted on one path and plain on the other, then `criterion.cuda()`).
    """
    why = """
        The loss module keeps `weight` as a buffer: it lives wherever the tensor was made. The
        logits come from the model on the GPU, the class weights sit on the CPU, and the loss
        raises "Expected all tensors to be on the same device" on the first step, even though
        the inputs and labels were moved correctly.
    """
    bad = """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(8, 3).to(device)
        class_weights = torch.tensor([1.0, 2.0, 5.0])
        criterion = nn.CrossEntropyLoss(weight=class_weights)
    """
    good = """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(8, 3).to(device)
        class_weights = torch.tensor([1.0, 2.0, 5.0])
        criterion = nn.CrossEntropyLoss(weight=class_weights).to(device)
    """
    fix = """
        Move the loss module with the model: `nn.CrossEntropyLoss(weight=w).to(device)` (a
        safe fix, offered when a device variable is in reach).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        for build, meeting in self.on_cpu(model):
            if id(build.node) in reported:
                continue
            reported.add(id(build.node))
            argument = f"`{build.keyword}=`" if build.keyword else "its weight"
            loss = (meeting.callee if meeting is not None else None) or "the loss"
            hook = after_the_framework_move(build.where.function)
            when = f" (`{build.where.function.name}` runs after the trainer moved the module)" \
                if hook else ""
            message = (
                f"`{loss}` keeps {argument} `{code(build.weight_node)}` on the CPU while the "
                f"model runs on the device{when}; move the loss too: "
                f"`{code(build.node.func)}(...).to({'self.device' if hook else 'device'})`"
            )
            yield self.finding(build.weight_node, message,
                               related_node=meeting.node if meeting is not None else None,
                               related_label="the loss meets device tensors here",
                               fix=self.fix_for(build, model))

        yield from self.own_losses_on_cpu(model, reported)

    def own_losses_on_cpu(self, model: Model, reported: set) -> Iterator[RawFinding]:
        """A loss class of this file holding its own parameters, built on the CPU, never moved,
        and called with device tensors: reported where it is built."""
        moved = {t.before.ident for t in model.obs.transfers if type(t.before) is Module}
        for event in model.obs.events:
            loss = event.subject
            if event.kind != "host-call" or type(loss) is not Module or loss.cls is None:
                continue
            if not loss.cls.name.endswith("Loss") or not holds_state(loss) or loss.ident in moved:
                continue
            if type(loss.node).__name__ != "Call" or id(loss.node) in reported or not event.where.accel:
                continue
            if not any(m.where.function is not None and m.where.function.cls is loss.cls
                       for m in model.obs.meetings):
                # its own code never meets the device with a CPU tensor: TextGAN's `GANLoss`
                # moves its 0-dim label buffers itself (`if self.gpu: t = t.cuda()`)
                continue
            reported.add(id(loss.node))
            yield self.finding(
                loss.node,
                f"`{loss.cls.name}` holds parameters of its own and is never moved, but line "
                f"{{related_line}} gives it `{code(event.other[0])}`, a tensor on the device; "
                f"move the loss too: `{code(loss.node)}.to(device)`",
                related_node=event.node, related_label="the loss meets device tensors here")

    @staticmethod
    def on_cpu(model: Model) -> Iterator[tuple]:
        """Weighted losses whose weight is on the CPU where a device model's output reaches
        them: seen meeting device tensors, or built in a file that moves a model and never
        moving the loss (a loss stored on a module moves with it)."""
        built = {id(b.weight_node): b for b in model.obs.losses}
        for meeting in model.obs.meetings:
            if meeting.kind == "loss-weight" and meeting.where.accel and id(meeting.host.node) in built:
                yield built[id(meeting.host.node)], meeting
        moved = {id(t.before.node) for t in model.obs.transfers if type(t.before) is Module}
        # `criterion = weighted if args.weighted else plain`, then `criterion.cuda()`: the move
        # of a loss that paths joined moves whichever of them was built
        joined = {(id(t.where.function), t.receiver.value) for t in model.obs.transfers
                  if type(t.before) is Module and t.before.loss and t.before.node is None and
                  type(t.receiver) is cst.Name}
        moves_a_model = any(type(t.before) is Module and not t.before.loss and
                            t.after.place is Place.DEVICE for t in model.obs.transfers)
        attached = {id(getattr(e.other, "node", None)) for e in model.obs.events if e.kind == "attach"}
        for build in model.obs.losses:
            owner = build.where.function.cls if build.where.function is not None else None
            if owner is not None and owner.is_module:
                if after_the_framework_move(build.where.function) and \
                        id(build.node) not in moved and host_weight(build.weight):
                    yield build, None  # `self.criterion = ...(weight=w)` in `on_fit_start`
                continue
            if id(build.node) in attached or _stored_on_an_object(model, build) or \
                    _held_by_a_container(model, build):
                continue  # `model.criterion = loss`: registered there, it moves with the model
            if joined and any((id(build.where.function), name) in joined
                              for name in _assigned_names(model, build)):
                continue
            if moves_a_model and id(build.node) not in moved and build.where.accel and \
                    host_weight(build.weight):
                yield build, None

    @staticmethod
    def fix_for(build: LossBuilt, model: Model) -> Optional[Fix]:
        device = first_device(build.devices, model.bound_at(build.node))
        if device is None:
            return None
        return Fix(
            f"move the loss to `{device}`", Applicability.SAFE,
            (Edit("replace", build.node, f"{code(build.node)}.to({device})"),),
        )


def _assigned_names(model: Model, build: LossBuilt) -> set:
    """The names `criterion = nn.CrossEntropyLoss(weight=w)` binds the loss to, in its scope."""
    scope = build.where.function.node if build.where.function is not None else model.module
    return {t.target.value for n in walk(scope) if type(n) is cst.Assign and n.value is build.node
            for t in n.targets if type(t.target) is cst.Name}


def _stored_on_an_object(model: Model, build: LossBuilt) -> bool:
    """`loss = nn.CrossEntropyLoss(weight=w)` then `model.criterion = loss` in the same function:
    set on an object (a module devlint may not know), the loss may be registered there and
    moved with it."""
    scope = build.where.function.node if build.where.function is not None else model.module
    names = _assigned_names(model, build)
    # (`self.criterion = loss` in a class of this file that is no module registers nothing)
    known = build.where.function is not None and build.where.function.cls is not None
    return bool(names) and any(
        type(n) is cst.Assign and type(n.value) is cst.Name and n.value.value in names and
        any(type(t.target) is cst.Attribute and not (
            known and type(t.target.value) is cst.Name and t.target.value.value == "self")
            for t in n.targets) for n in walk(scope))


CONTAINERS = ("ModuleDict", "ModuleList", "Sequential")


def _held_by_a_container(model: Model, build: LossBuilt) -> bool:
    """`nn.ModuleDict({"attr": nn.BCEWithLogitsLoss(pos_weight=w), ...})`, then
    `crit.to(device)`: registered in the container, the loss moves with it."""
    for transfer in model.obs.transfers:
        node = transfer.before.node if type(transfer.before) is Module else None
        if type(node) is cst.Call and (dotted(node.func) or "").rsplit(".", 1)[-1] in CONTAINERS \
                and any(sub is build.node for arg in node.args for sub in walk(arg.value)):
            return True
    return False
