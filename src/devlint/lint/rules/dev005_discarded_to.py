from __future__ import annotations

from typing import Iterator, Optional

from devlint.lint.facts import DiscardedMove, Facts
from devlint.lint.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class DiscardedTo(Rule):
    code = "DEV005"
    name = "discarded-to"
    fix_kind = Applicability.SAFE
    summary = "A tensor's `.to(device)`, `.cuda()` or `.cpu()` as a bare statement: the copy is thrown away."
    what = """
        Finds `t.to(device)`, `t.cuda()` and `t.cpu()` written as a statement of their own when `t`
        is known to be a plain tensor: a tensor unpacked or indexed out of the loader's batch (`for
        x, y in loader`, `batch[0]`), or a name bound to a tensor factory (`t = torch.zeros(...)`).
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

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        for move in facts.discarded_moves:
            receiver = code(move.receiver)
            method = move.call.func.attr.value  # type: ignore[attr-defined]
            message = (
                f"`{receiver}.{method}(...)` returns a moved copy that this line throws away; "
                f"`{receiver}` ({move.why}) stays where it was: "
                f"write `{receiver} = {code(move.call)}`"
            )
            yield self.finding(move.call, message, fix=self.fix_for(move))

    def fix_for(self, move: DiscardedMove) -> Optional[Fix]:
        if move.name is None:
            return None  # `batch[0] = ...` fails on the tuples many loaders yield
        text = code(move.call)
        return Fix(
            f"assign the result back to `{move.name}`", Applicability.SAFE,
            (Edit("replace", move.call, f"{move.name} = {text}"),),
        )
