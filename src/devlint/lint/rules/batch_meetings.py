"""What DEV002, DEV003 and DEV004 share: the batches that meet device tensors unmoved.

A batch is a tensor a data loader yielded (or a batch object: a tuple, a dict, a
BatchEncoding). One batch tensor gets one finding, from its first meeting with the device: at a
model call it is DEV002, at a loss or an operation DEV004; when the name was moved before its
loop and the loop rebinds it, the early move is the cause, DEV003. A batch a discarded `.to()`
left behind is DEV005's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from devlint.lint.model import Model
from devlint.lint.model.observations import Meeting
from devlint.lint.rules.fixes import code


@dataclass(frozen=True)
class UnmovedBatch:
    code: str  # DEV002, DEV003 or DEV004
    meeting: Meeting
    name: str  # how the code names the batch


def unmoved_batches(model: Model) -> list[UnmovedBatch]:
    if "batches" not in model.shared:
        model.shared["batches"] = _decide(model)
    return model.shared["batches"]


def _decide(model: Model) -> list[UnmovedBatch]:
    found: list[UnmovedBatch] = []
    seen: set = set()
    for meeting in model.obs.meetings:
        batch = meeting.host.value
        if batch.why != "batch" or not meeting.where.accel or meeting.where.expect_raise:
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
