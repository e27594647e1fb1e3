from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.rules.base import Rule
from devlint.lint.rules.batch_meetings import UnmovedBatch, unmoved_batches
from devlint.lint.rules.fixes import code


class BatchMovedOutsideLoop(Rule):
    code = "DEV003"
    name = "batch-moved-outside-loop"
    fix_kind = Applicability.UNSAFE
    summary = "A batch is moved before the loop, but the loop rebinds it to a CPU batch."
    what = """
        Finds a `.to(device)` of a name before a loop over a data loader whose target rebinds that
        same name (`x = x.to(device)` then `for x, y in loader:`), when the rebound batch then
        reaches a device model or a loss unmoved.
    """
    silent = """
        For data moved once that the loop does not rebind (full-batch training, a fixed validation
        set, a GAN's fixed noise, a dataset moved before the loader is built), for prefetch loops
        that move the next batch themselves, and when the loop moves the batch again.
    """
    why = """
        The move before the loop covers only the batch that existed then. Every iteration the
        loader hands out a fresh batch in host memory under the same name, so the model on the
        GPU meets CPU tensors and the step fails with "Expected all tensors to be on the same
        device". The early move reads like a fix, which is what makes the bug hard to see.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
        x, y = next(iter(loader))
        x, y = x.to(device), y.to(device)
        for x, y in loader:
            out = model(x)
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
    """
    fix = """
        Repeat the `.to(device)` inside the loop, right after the loop binds the batch. The early
        move stays: code between it and the loop (a sanity check, cudnn autotuning) may use the
        moved batch. The fix is unsafe: the early statement may do more than move.
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        for batch in unmoved_batches(model):
            if batch.code != self.code:
                continue
            early = batch.meeting.host.value.premoved
            if id(early) in reported:
                continue
            reported.add(id(early))
            message = (
                f"`{batch.name}` is moved to the device before the loop, but the loop "
                f"rebinds it to a fresh CPU batch every iteration; move it inside the loop"
            )
            yield self.finding(
                early, message, related_node=batch.meeting.host.node,
                related_label=f"`{batch.name}` used unmoved here", fix=self.fix_for(batch),
            )

    @staticmethod
    def fix_for(batch: UnmovedBatch) -> Optional[Fix]:
        """Copy the early move to the top of the loop body. Not cut: code between the early
        move and the loop may use the moved batch (unsafe: the statement may do other work)."""
        value = batch.meeting.host.value
        statement, loop = value.premoved, value.bound[1] if value.bound else None
        if type(loop) is not cst.For:
            return None
        body = loop.body
        if not (type(statement) is cst.SimpleStatementLine and len(statement.body) == 1
                and type(statement.body[0]) is cst.Assign
                and type(body) is cst.IndentedBlock and body.body):
            return None
        text = code(statement.body[0])
        if "\n" in text or "\r" in text:
            return None
        return Fix(
            "repeat the `.to(device)` inside the loop", Applicability.UNSAFE,
            (Edit("insert_before", body.body[0], text),),
        )
