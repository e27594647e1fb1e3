from __future__ import annotations

from typing import Iterator

from devlint.core.findings import Applicability, RawFinding
from devlint.lint.model import Model
from devlint.lint.rules.base import Rule
from devlint.lint.rules.batch_meetings import device_phrase, related_node, siblings, unmoved_batches
from devlint.lint.rules.fixes import batch_fix


class LossDeviceMismatch(Rule):
    code = "DEV004"
    name = "loss-device-mismatch"
    fix_kind = Applicability.SAFE
    summary = "A loss gets a device model's output and labels that were never moved."
    what = """
        Finds a loss (an `nn.*Loss` instance, `F.cross_entropy`, `F.mse_loss` and the other
        functional losses, or a `criterion`/`loss_fn`) called with the output of a model on the
        device and a batch tensor, usually the labels, that was not moved in that iteration,
        also a field a `collate_fn` left on the CPU while moving the others (`{"input_ids":
        ids.to(device), "labels": labels}`), and the targets cut from a tensor the code moves
        piece by piece (`get_batch` moving the inputs it stacks from a dataset tensor, not the
        targets stacked beside them), or a field of an object the code moves field by field
        (`move_graph` moving `graph.x` and `graph.edge_index`, not `graph.y`): such data is
        host data by design, so the piece left behind is the bug, not the tensor it was cut
        from (DEV002 at a model call).
    """
    silent = """
        When the labels are moved in that iteration (before or after the forward pass, inline in the
        call, by a dict comprehension or a helper that takes `device`), when the loader, its
        `collate_fn` (for that field) or a device wrapper yields device tensors, for batch objects that move in
        place, under `accelerator.prepare` and in Lightning steps, for 0-dim CPU tensors (PyTorch
        lets a CPU scalar meet CUDA tensors), for the targets and lengths of a CTC loss (PyTorch
        copies CPU targets to the log-probabilities' device itself; cuDNN's CTC wants them on the
        CPU), next to a tensor made on the device of data whose place is unknown
        (`device=ref.device` of a value picked out of an unknown dict), and in CPU-only scripts.
    """
    why = """
        The logits live on the GPU because the model does; the labels came from the loader and
        live in host memory. The loss kernel needs both in one place and raises "Expected all
        tensors to be on the same device". Moving the inputs but forgetting the labels is the
        classic half-done port of a CPU loop.
    """
    bad = """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 3).to(device)
        criterion = nn.CrossEntropyLoss()
        for x, y in loader:
            x = x.to(device)
            loss = criterion(model(x), y)
    """
    good = """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 3).to(device)
        criterion = nn.CrossEntropyLoss()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
    """
    fix = """
        Move the labels with the inputs, right after the loader yields them:
        `x, y = x.to(device), y.to(device)`.
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        for batch in unmoved_batches(model):
            if batch.code != self.code:
                continue
            meeting = batch.meeting
            where = f"loss `{meeting.callee}`" if meeting.kind == "loss" and meeting.callee else \
                "the loss" if meeting.kind == "loss" else "this operation"
            message = (
                f"{where} gets `{batch.name}` on the CPU next to {device_phrase(meeting)}; "
                f"move `{batch.name}` to the device before it"
            )
            yield self.finding(
                meeting.host.node, message, related_node=related_node(meeting),
                related_label="model moved here", fix=batch_fix(siblings(model, batch), model),
            )
