"""What DEV002, DEV003 and DEV004 share: the batches that meet device tensors unmoved.

A batch is a tensor a data loader yielded (or a batch object: a tuple, a dict, a
BatchEncoding). One batch tensor gets one finding, from its first meeting with the device: at a
model call it is DEV002, at a loss or an operation DEV004; when the name was moved before its
loop and the loop rebinds it, the early move is the cause, DEV003. A batch a discarded `.to()`
left behind is DEV005's. A piece of a tensor the code moves piece by piece (a batch cut from a
dataset tensor), or a field of an object the code moves field by field, that reaches a model or
a loss unmoved is a batch too (`a_left_piece`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from devlint.lint.model import Model
from devlint.lint.model.observations import Meeting
from devlint.lint.model.values import Place, Tensor
from devlint.lint.rules.fixes import code
from devlint.lint.syntax import walk


@dataclass(frozen=True)
class UnmovedBatch:
    code: str  # DEV002, DEV003 or DEV004
    meeting: Meeting
    name: str  # how the code names the batch


def unmoved_batches(model: Model) -> list[UnmovedBatch]:
    if "batches" not in model.shared:
        model.shared["batches"] = _decide(model)
    return model.shared["batches"]


def moved_in_part(model: Model) -> frozenset:
    """ids of the factory calls whose tensor the code moves to the device piece by piece: a
    slice, a row, a stack of slices of it moved (`x = torch.stack([data[i:i + n] for i in ix])`,
    `x.to(device)`). Such a tensor is host data by design, a dataset cut into batches, so a piece
    of it that meets the device unmoved (`y`, cut beside `x`) is a batch that was not moved:
    reported where it meets the device (DEV004, DEV002), not where the whole was made."""
    if "moved_in_part" not in model.shared:
        model.shared["moved_in_part"] = frozenset(
            id(move.before.node) for move in _host_to_device(model)
            if move.before.why == "factory" and move.before.node is not None
            and _a_piece(move.receiver, move.before.node, model))
    return model.shared["moved_in_part"]


def moved_field_by_field(model: Model) -> frozenset:
    """idents of the objects of the code's own classes some of whose tensor fields the code
    moves to the device one by one (`graph.x = graph.x.to(device)` in `move_graph`): a field
    left behind (`graph.y`) that meets a model or a loss is a batch field not moved."""
    if "moved_fields" not in model.shared:
        model.shared["moved_fields"] = frozenset(
            move.before.field_of for move in _host_to_device(model) if move.before.field_of)
    return model.shared["moved_fields"]


def _host_to_device(model: Model) -> list:
    """The kept moves of a CPU tensor to the device."""
    return [move for move in model.obs.transfers
            if move.kept and type(move.before) is Tensor and move.before.place is Place.HOST
            and type(move.after) is Tensor and move.after.place is Place.DEVICE]


def _a_piece(receiver, factory, model: Model) -> bool:
    """The moved expression is not the whole tensor the factory made (`data.to(device)` of
    `data = torch.tensor(...)`, or of `alpha_bars = torch.cumprod(1 - torch.linspace(...))`): an
    expression cut from it, or a name bound to one."""
    if receiver is factory:
        return False
    if type(receiver) is not cst.Name:
        return True
    return receiver.value not in _names_bound_to(model).get(id(factory), ())


def _names_bound_to(model: Model) -> dict:
    """id of each call inside the value of a `name = ...` assignment -> the names it binds:
    one walk of the module, made the first time a piece is asked about."""
    if "names_bound_to" not in model.shared:
        bound: dict = {}
        for node in walk(model.module):
            if type(node) is not cst.Assign:
                continue
            names = {t.target.value for t in node.targets if type(t.target) is cst.Name}
            for sub in walk(node.value) if names else ():
                if type(sub) is cst.Call:
                    bound.setdefault(id(sub), set()).update(names)
        model.shared["names_bound_to"] = bound
    return model.shared["names_bound_to"]


def a_left_piece(meeting: Meeting, model: Model) -> bool:
    """A piece of host data the code moves piece by piece (`moved_in_part`) that reaches a
    model or a loss unmoved: a batch the code forgot to move. Elsewhere (an operation of a
    decoding step, a schedule read by index) the tensor is working state, made on the CPU."""
    value = meeting.host.value
    if meeting.kind not in ("model", "loss") or getattr(meeting.device.value, "assumed", False):
        return False
    if value.why == "factory" and id(value.node) in moved_in_part(model):
        return True
    return value.why in ("factory", "data") and bool(value.field_of) and \
        value.field_of in moved_field_by_field(model)


def _decide(model: Model) -> list[UnmovedBatch]:
    found: list[UnmovedBatch] = []
    seen: set = set()
    for meeting in model.obs.meetings:
        batch = meeting.host.value
        if batch.why != "batch" and not a_left_piece(meeting, model):
            continue  # (a piece of host data the code moves piece by piece is one, left behind)
        if not meeting.where.accel or meeting.where.expect_raise:
            continue
        if batch.discarded is not None or meeting.kind == "loss-weight":
            continue
        if batch.assumed and getattr(meeting.device.value, "assumed", False) and batch.premoved is None:
            # Two conventions stacked (a loader and a model known by name only); a name the
            # code itself moved before the loop says where its batches must go.
            continue
        name = batch.bound[0] if batch.bound is not None else code(meeting.host.node)
        identity = (id(batch.loop), id(batch.bound[1]) if batch.bound is not None else None,
                    name if batch.bound is not None else code(meeting.host.node))
        if identity in seen:
            continue
        seen.add(identity)
        found.append(UnmovedBatch(_code(meeting), meeting, name))
    return found


def _code(meeting: Meeting) -> str:
    if meeting.host.value.premoved is not None:
        return "DEV003"
    return "DEV002" if meeting.kind == "model" else "DEV004"


def siblings(model: Model, batch: UnmovedBatch) -> list[Meeting]:
    """The batch meetings whose tensors got their names in the same statement (one fix)."""
    bound = batch.meeting.host.value.bound
    if bound is None:
        return [batch.meeting]
    return [b.meeting for b in unmoved_batches(model)
            if b.code != "DEV003" and b.meeting.host.value.bound is not None
            and b.meeting.host.value.bound[1] is bound[1]] or [batch.meeting]


def device_phrase(meeting: Meeting) -> str:
    """How a message names the device side: `model` (moved to the device at line N)."""
    callee = meeting.callee
    value = meeting.device.value
    moved = getattr(value, "moved_at", None)
    if meeting.kind == "model":
        what = f"`{callee}`" if callee else "a model"
    elif type(value).__name__ == "Tensor" and value.why == "output":
        what = "the output of a model"
    else:
        what = "a tensor"
    if moved is not None:
        return f"{what} (moved to the device at line {{related_line}})"
    if getattr(value, "assumed", False):
        return f"{what} (on the device: its function takes the device)"
    return f"{what} (on the device)"


def related_node(meeting: Meeting) -> Optional[object]:
    return getattr(meeting.device.value, "moved_at", None)
