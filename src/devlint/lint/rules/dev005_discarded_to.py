from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.conventions import names_object_batch
from devlint.lint.model.observations import Transfer
from devlint.lint.model.values import Place
from devlint.lint.model.torch_api import PRESERVING_METHODS
from devlint.lint.positions import spans_of
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code
from devlint.lint.syntax import dotted

# What makes the receiver a tensor (whose `.to` returns a copy), for the message.
WHY = {
    "batch": "unpacked from the loader's batch",
    "factory": "made by a tensor factory",
    "attr": "a tensor attribute made by a factory in `__init__`",
    "data": "a tensor computed on the device",
}


class DiscardedTo(Rule):
    code = "DEV005"
    name = "discarded-to"
    fix_kind = Applicability.SAFE
    summary = "A tensor's `.to(device)`, `.cuda()` or `.cpu()` as a bare statement: the copy is thrown away."
    what = """
        Finds `t.to(device)`, `t.cuda()` and `t.cpu()` written as a statement of their own when `t`
        is known to be a plain tensor: a tensor unpacked or indexed out of the loader's batch (`for
        x, y in loader`, `batch[0]`), a name bound to a tensor factory (`t = torch.zeros(...)`),
        or a tensor computed on the device and sent to the CPU by a bare `.cpu()` (`pred =
        probs.argmax(1)`, then `pred.cpu()` and `pred.numpy()`).
    """
    silent = """
        Whenever the receiver is not known to be a plain tensor: modules (`model.to(device)` moves
        in place) and whole batch objects whose `.to` works in place (HF `BatchEncoding`, PyG
        `Data`) are never reported.
    """
    why = """
        `Module.to` moves the module's parameters in place and returns the module, so
        `model.to(device)` on a line of its own works, and people write tensors the same way.
        But `Tensor.to` returns a new tensor and leaves the original where it was: the line
        copies the batch to the GPU and throws the copy away. The next line hands the CPU
        tensor to a GPU model and fails with "Expected all tensors to be on the same device",
        or, on a CPU-only machine, the bug hides until the job reaches the cluster.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
        for x, y in loader:
            x.to(device)
            y.to(device)
            loss = torch.nn.functional.mse_loss(model(x), y)
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
        for x, y in loader:
            x = x.to(device)
            y = y.to(device)
            loss = torch.nn.functional.mse_loss(model(x), y)
    """
    fix = """
        Keep the result: `t = t.to(device)` (a safe fix, offered when `t` is a plain name).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        shown = None
        for move in model.obs.transfers:
            if move.kept or id(move.node) in reported or not self.copies(move):
                continue
            if model.unit_of and move.statement is not None:
                shown = displayed(model) if shown is None else shown
                if id(move.statement) in shown:
                    continue  # a cell's last expression: Jupyter shows the copy, `m` stays put
            reported.add(id(move.node))
            receiver = code(move.receiver)
            method = move.node.func.attr.value
            message = (
                f"`{receiver}.{method}(...)` returns a moved copy that this line throws away; "
                f"`{receiver}` ({WHY[move.before.why]}) stays where it was: "
                f"write `{receiver} = {code(move.node)}`"
            )
            yield self.finding(move.node, message, fix=self.fix_for(move))

    @staticmethod
    def copies(move: Transfer) -> bool:
        """The receiver is a tensor for sure, so the bare call only makes a copy. A whole
        batch may be a BatchEncoding or a graph, whose `.to` works in place."""
        before = move.before
        if type(_root(move.receiver)) not in (cst.Name, cst.Attribute, cst.Subscript):
            return False  # `torch.zeros(1).cuda()` alone: a warm-up, no value left behind
        if type(before).__name__ != "Tensor" or not before.plain or before.why not in WHY:
            return False
        if before.why == "batch" and names_object_batch(dotted(move.receiver) or ""):
            return False
        if before.why == "data" and (before.place is not Place.DEVICE or before.assumed or
                                     getattr(move.after, "place", None) is Place.DEVICE):
            return False  # `pred.cpu()` of `pred = probs.argmax(1)`, computed on the device
        return before.place is not move.after.place or before.why == "batch"

    @staticmethod
    def fix_for(move: Transfer) -> Optional[Fix]:
        name = dotted(_root(move.receiver))
        if name is None or type(_root(move.receiver)) not in (cst.Name, cst.Attribute):
            return None  # `batch[0] = ...` fails on the tuples many loaders yield
        return Fix(
            f"assign the result back to `{name}`", Applicability.SAFE,
            (Edit("replace", move.node, f"{name} = {code(move.node)}"),),
        )


def displayed(model: Model) -> set:
    """The statements that end a notebook cell at its top level: Jupyter displays the value of a
    cell's last expression (`m.to(device)` shows the moved copy), it is not thrown away."""
    body = list(model.module.body)
    spans = spans_of(model.module, body)
    last: dict = {}
    for statement in body:
        span = spans.get(statement)
        if span is not None:
            last[model.unit_of(span.start.line)] = statement
    return {id(statement) for statement in last.values()}


def _root(receiver):
    """`x` of `x.float()`: the value a chain of tensor methods starts from."""
    while type(receiver) is cst.Call and type(receiver.func) is cst.Attribute and \
            receiver.func.attr.value in PRESERVING_METHODS:
        receiver = receiver.func.value
    return receiver
