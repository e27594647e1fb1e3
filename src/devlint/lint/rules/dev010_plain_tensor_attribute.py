from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.lint.facts import Facts, TensorAttribute
from devlint.lint.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class PlainTensorAttribute(Rule):
    code = "DEV010"
    name = "plain-tensor-attribute"
    fix_kind = Applicability.SAFE
    summary = "A tensor stored as a plain attribute of an `nn.Module` and used in `forward`."
    what = """
        Inside an `nn.Module` class, finds `self.x = torch.<factory>(...)` in `__init__` (a tensor
        of one dimension or more made without `device=`) when `forward` reads `self.x`.
    """
    silent = """
        For `nn.Parameter(...)` and `register_buffer`, for attributes that another method re-creates
        (`forward` building it anew), for attributes `forward` moves itself (`self.x.to(x.device)`,
        `self.x.type_as(x)`), for attributes only used as an index (CUDA tensors accept CPU
        indices), for 0-dim scalars, and for classes that override `_apply`, `to` or `cuda`.
    """
    why = """
        `model.to(device)` moves parameters and buffers, the tensors the module registered. A
        tensor assigned as a plain attribute is neither: it stays on the CPU while the weights
        move, and the first `forward` on the GPU fails with "Expected all tensors to be on the
        same device". The module passes every CPU test, which is why the bug ships.
    """
    bad = """
        import torch
        import torch.nn as nn

        class Normalize(nn.Module):
            def __init__(self):
                super().__init__()
                self.mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)

            def forward(self, x):
                return x - self.mean
    """
    good = """
        import torch
        import torch.nn as nn

        class Normalize(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("mean", torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))

            def forward(self, x):
                return x - self.mean
    """
    fix = """
        Register it: `self.register_buffer("x", <the tensor>, persistent=False)`, so that it
        moves with the module. `persistent=False` keeps it out of `state_dict()`, so saved
        checkpoints keep their keys (a safe fix).
    """

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        for name in sorted(facts.module_classes):
            info = facts.classes[name]
            if info.moves_itself:
                continue
            for attr, tensor in info.tensor_attributes.items():
                if attr not in info.forward_reads or attr in info.assigned_elsewhere:
                    continue
                if attr in info.moved_in_forward:
                    continue
                message = (
                    f"`self.{attr}` is a plain tensor attribute of `{name}`: `model.to(device)` "
                    f"leaves it on the CPU while `forward` (line {{related_line}}) uses it with "
                    f"the module's tensors; register it with `self.register_buffer(\"{attr}\", ...)`"
                )
                yield self.finding(
                    tensor.value, message, related_node=info.forward_reads[attr],
                    related_label="used in forward", fix=self.fix_for(tensor),
                )

    @staticmethod
    def fix_for(tensor: TensorAttribute) -> Optional[Fix]:
        statement = tensor.statement
        if statement is None or not isinstance(statement.body[0], cst.Assign):
            return None
        assign = statement.body[0]
        if len(assign.targets) != 1:
            return None
        text = f'self.register_buffer("{tensor.attr}", {code(tensor.value)}, persistent=False)'
        return Fix("register it as a buffer", Applicability.SAFE, (Edit("replace", assign, text),))
