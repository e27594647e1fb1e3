from __future__ import annotations

from typing import Iterator, Optional

from devlint.lint.facts import Facts, LossBuild
from devlint.lint.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code, device_in_reach


class LossWeightOnCpu(Rule):
    code = "DEV012"
    name = "loss-weight-on-cpu"
    fix_kind = Applicability.SAFE
    summary = "A loss built with a CPU `weight=`/`pos_weight=` tensor and never moved."
    what = """
        Finds a loss module (`nn.CrossEntropyLoss`, `nn.NLLLoss`, `nn.BCEWithLogitsLoss`, ...) built
        with a `weight=`, `pos_weight=` (or first positional) tensor that is on the CPU at that
        point (a factory without `device=`, directly or through a variable), when the loss is never
        moved (`criterion.to(device)`, `.cuda()`, or `.to(device)` on the constructor) and the file
        moves a model to a device.
    """
    silent = """
        For 0-dim weights, and for losses stored on an `nn.Module` (`self.criterion = ...` in a
        model registers the loss, so `model.to(device)` moves its weight).
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

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        if not facts.moves_a_model:
            return
        reported: set[int] = set()
        for build in facts.loss_builds:
            if id(build.call) in reported or self.moved_with_model(build, facts):
                continue
            reported.add(id(build.call))
            argument = f"`{build.keyword}=`" if build.keyword else "its weight"
            message = (
                f"`{build.key}` keeps {argument} `{code(build.weight)}` on the CPU while the "
                f"model runs on the device; move the loss too: "
                f"`{code(build.call.func)}(...).to(device)`"
            )
            yield self.finding(build.weight, message, fix=self.fix_for(build, facts))

    @staticmethod
    def moved_with_model(build: LossBuild, facts: Facts) -> bool:
        if any(kind == "move" for _, kind, _ in build.home.events.get(build.key, ())):
            return True
        if build.key.startswith("self."):
            cls = build.home
            return cls.kind == "class" and cls.name in facts.module_classes
        return False

    @staticmethod
    def fix_for(build: LossBuild, facts: Facts) -> Optional[Fix]:
        device = device_in_reach(facts, build.scope)
        if device is None:
            return None
        return Fix(
            f"move `{build.key}` to `{device}`", Applicability.SAFE,
            (Edit("replace", build.call, f"{code(build.call)}.to({device})"),),
        )
