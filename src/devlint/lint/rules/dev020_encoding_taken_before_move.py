from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from devlint.core.findings import RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import Meeting, Transfer
from devlint.lint.model.values import Place
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code
from devlint.lint.rules.ordering import inside, position, same_scope
from devlint.lint.syntax import dotted, walk


class EncodingTakenBeforeMove(Rule):
    code = "DEV020"
    name = "encoding-taken-before-move"
    fix_kind = None
    summary = "A tensor is taken out of a tokenizer's encoding before the encoding is moved."
    what = """
        Finds `ids = enc["input_ids"]` (or `enc.input_ids`, or a copy of it: `labels =
        enc["input_ids"].clone()`) taken from a tokenizer's output
        (`return_tensors="pt"`), or from a loader's batch where its `collate_fn` (a function, a
        `functools.partial` or a collator object) returns that output, before `enc = enc.to(device)` or `enc.to(device)`, when `ids`
        then meets the device: it is handed to a model on the device or computed with device
        tensors, itself or a tensor made like it (`torch.full_like(ids, -100)` for labels),
        there or in a function it is handed to after the move (a pooling helper), or
        in the caller an `_encode` helper returns it to after moving the encoding.
    """
    silent = """
        When the tensors are taken after the move (`enc = enc.to(device)` first, then
        `enc["input_ids"]`), when they are moved themselves (`ids.to(device)`), when the whole
        encoding is passed (`model(**enc)` after the move), when the model stays on the CPU,
        and in tests.
    """
    why = """
        `BatchEncoding.to(device)` moves the tensors the encoding holds and returns the
        encoding. A tensor taken out of it before is a reference to the old CPU tensor: the
        move never reaches it, and the model fails with "Expected all tensors to be on the same
        device" (or a generation loop runs its prompt on the CPU).
    """
    bad = """
        import torch
        from transformers import AutoModel, AutoTokenizer

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
        model = AutoModel.from_pretrained("bert-base-uncased").to(device)
        enc = tokenizer(["a sentence"], return_tensors="pt")
        input_ids = enc["input_ids"]
        enc = enc.to(device)
        out = model(input_ids, attention_mask=enc["attention_mask"])
    """
    good = """
        import torch
        from transformers import AutoModel, AutoTokenizer

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
        model = AutoModel.from_pretrained("bert-base-uncased").to(device)
        enc = tokenizer(["a sentence"], return_tensors="pt")
        enc = enc.to(device)
        input_ids = enc["input_ids"]
        out = model(input_ids, attention_mask=enc["attention_mask"])
    """
    fix = """
        Take the tensors out of the encoding after moving it, or move them too
        (`input_ids = input_ids.to(device)`). No automatic fix: the line that takes them may
        be far from the move.
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        for meeting in model.obs.meetings:
            host = meeting.host.value
            if host.why != "encoding" or not host.plain or host.place is not Place.HOST:
                continue
            if not meeting.where.accel or meeting.where.in_test or id(meeting.host.node) in reported:
                continue
            taken = host.node
            source = _taken_from(taken)
            if source is None:
                continue
            move = self.move_between(model, meeting, source, taken)
            if move is None and not same_scope(model, meeting.where, taken):
                move = self.moved_then_handed_on(model, source, taken)
            if move is None:
                continue
            reported.add(id(meeting.host.node))
            if id(taken) in reported:
                continue
            reported.add(id(taken))
            # reported where the tensor is taken out (the root cause), related to the meeting
            yield self.finding(
                taken,
                f"`{code(taken)}` is taken before `{source}` is moved to the device, so this tensor "
                f"stays on the CPU and meets the device on line {{related_line}}; take it out of "
                f"`{source}` after the move",
                related_node=meeting.node, related_label="meets the device here")

    @staticmethod
    def moved_then_handed_on(model: Model, source: str, taken: Any) -> Optional[Transfer]:
        """The taken tensor meets the device in a function it is handed to (`mean_pool(hidden,
        mask)`) or in the caller it is returned to: the move of `source` after the take, then a
        call of the same function handing the tensor's name on, or a `return` of it."""
        scope = _scope_of(model, taken)
        name = _bound_name(scope, taken)
        if name is None:
            return None
        start = position(model, taken)
        for move in model.obs.transfers:
            at = position(model, move.node)
            if dotted(move.receiver) != source or getattr(move.after, "place", None) is not Place.DEVICE or \
                    at <= start or not inside(model, scope, move.node):
                continue
            for sub in walk(scope):
                if type(sub) is cst.Call and position(model, sub) > at and any(
                        type(arg.value) is cst.Name and arg.value.value == name for arg in sub.args):
                    return move
                if type(sub) is cst.Return and sub.value is not None and position(model, sub) > at \
                        and any(type(part) is cst.Name and part.value == name for part in walk(sub.value)):
                    return move  # `return input_ids, enc["attention_mask"]` of an `_encode` helper
        return None

    @staticmethod
    def move_between(model: Model, meeting: Meeting, source: str, taken: Any) -> Optional[Transfer]:
        start, end = position(model, taken), position(model, meeting.node)
        for move in model.obs.transfers:
            if dotted(move.receiver) != source or getattr(move.after, "place", None) is not Place.DEVICE:
                continue
            if start < position(model, move.node) < end and same_scope(model, meeting.where, move.node):
                return move
        return None


def _scope_of(model: Model, node: Any) -> Any:
    """The innermost function definition holding `node`, else the module."""
    found = model.module
    for sub in walk(model.module):
        if type(sub) in (cst.FunctionDef, cst.Lambda) and inside(model, sub, node) and inside(model, found, sub):
            found = sub
    return found


def _bound_name(scope: Any, taken: Any) -> Optional[str]:
    """`mask` of `mask = enc["attention_mask"]`, and `labels` of `labels =
    enc["input_ids"].clone()` (a method of the taken tensor, where it is)."""
    for sub in walk(scope):
        if type(sub) is cst.Assign and _of_taken(sub.value, taken) and len(sub.targets) == 1 and \
                type(sub.targets[0].target) is cst.Name:
            return sub.targets[0].target.value
    return None


def _of_taken(value: Any, taken: Any) -> bool:
    """`value` is `taken`, or methods called on it (`enc["input_ids"].clone().long()`)."""
    while value is not taken:
        if type(value) is not cst.Call or type(value.func) is not cst.Attribute:
            return False
        value = value.func.value
    return True


def _taken_from(node: Any) -> Optional[str]:
    """`enc` of `enc["input_ids"]`, of `enc.input_ids` and of `enc.pop("special_tokens_mask")`
    (or `enc.get(...)`)."""
    if type(node) is cst.Subscript:
        return dotted(node.value)
    if type(node) is cst.Attribute:
        return dotted(node.value)
    if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in ("pop", "get"):
        return dotted(node.func.value)
    return None
