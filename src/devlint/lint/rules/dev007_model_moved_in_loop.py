from __future__ import annotations

from typing import Iterator, Optional

from devlint.lint.facts import Facts, LoopFrame, ModelMoveInLoop
from devlint.lint.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class ModelMovedInLoop(Rule):
    code = "DEV007"
    name = "model-moved-in-loop"
    fix_kind = Applicability.UNSAFE
    summary = "A model is moved to the device on every iteration of the training loop."
    what = """
        Finds `model.to(device)`, `model = model.to(device)` and `model.cuda()` inside a training
        loop (a loop over a data loader, or one whose body calls `backward()` or an optimizer's
        `step()`, and the loops around it) when the model was bound before the loop.
    """
    silent = """
        When the loop binds the model or the device itself (a model per fold, a device per
        iteration), and when the loop also moves the model back to the CPU (deliberate offloading).
    """
    why = """
        Moving a module walks all of its parameters and buffers. After the first iteration
        they are already on the device, so every later call is wasted work on the hot path,
        and a model moved inside the loop after the optimizer was built makes readers wonder
        which parameters the optimizer holds. Move the model once, before the loop.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in loader:
            model.to(device)
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model.to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
    """
    fix = """
        Hoist the move above the outermost loop it repeats in (an unsafe fix: it moves code).
    """

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        for move in facts.model_moves_in_loops:
            if not facts.is_a_model(move.key, move.scope):
                continue
            loops = self.repeating_loops(move)
            if not loops:
                continue
            message = (
                f"`{move.key}` is moved to the device on every iteration of this loop; move it "
                f"once before the loop (line {{related_line}})"
            )
            yield self.finding(
                move.call, message, related_node=loops[0].node, related_label="the loop",
                fix=self.fix_for(move, loops[0]),
            )

    @staticmethod
    def repeating_loops(move: ModelMoveInLoop) -> list[LoopFrame]:
        """The loops, outermost first, that repeat the move of the same model to the same
        device: from the innermost loop outwards while none of them binds the model or the
        device, offloads the model, or stops being a training loop."""
        found: list[LoopFrame] = []
        root = move.key.split(".", 1)[0]
        for frame in reversed(move.loops):
            if not frame.trains or move.key in frame.offloads:
                break
            if move.key in frame.binds or root in frame.binds:
                break
            if any(name in frame.binds for name in move.argument_names):
                break
            found.insert(0, frame)
        return found

    @staticmethod
    def fix_for(move: ModelMoveInLoop, loop: LoopFrame) -> Optional[Fix]:
        statement = move.statement
        if statement is None:
            return None
        text = code(statement.body[0])
        if "\n" in text or "\r" in text:
            return None
        return Fix(
            f"move `{move.key}` once, before the loop", Applicability.UNSAFE,
            (Edit("delete", statement), Edit("insert_before", loop.node, text)),
        )
