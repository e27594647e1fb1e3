from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class PlainTensorAttribute(Rule):
    code = "DEV010"
    name = "plain-tensor-attribute"
    fix_kind = Applicability.SAFE
    summary = "A tensor stored as a plain attribute of an `nn.Module` and used in `forward`."
    what = """
        Inside an `nn.Module` class (a subclass of a torch layer such as `nn.Linear` too), finds
        `self.x = torch.<factory>(...)` in `__init__` or in the `reset_parameters` it runs (the one
        a torch layer's own `__init__` calls included) (a tensor of one dimension or more made
        without `device=`, also computed from one or from the module's plain attributes, or
        chosen by a conditional expression) when it meets the module's tensors in `forward` (or
        `forward` returns it), with the module on the device: moved by this file, or, as a
        module's inputs and parameters live wherever the module is, taken to be there. In a
        LightningModule, also a tensor set in a hook the trainer runs (`setup`, before its move;
        `on_fit_start` or `on_validation_epoch_start`, after it, where a buffer registered would
        stay on the CPU too: the finding asks for `device=self.device` there). Not in
        `configure_model`: Lightning runs it under the strategy's device context, so what it
        makes is made on the device.
    """
    silent = """
        For `nn.Parameter(...)` and `register_buffer`, for attributes that another method re-creates
        (`forward` building it anew), for placeholders (`torch.empty(1)`, an empty
        `torch.tensor(())`) that another method fills with anything but a new CPU tensor
        (`process_support_set` storing the support set), for attributes `forward` moves itself (`self.x.to(x.device)`,
        `self.x.type_as(x)`), for attributes only used as an index (CUDA tensors accept CPU
        indices), for 0-dim scalars, for classes that override `_apply`, `to` or `cuda` (or
        derive from one that does), and for the `if m is None:` arm of an argument that every
        construction of the class in its file passes (the identity a library's encoder makes
        when no group matrix is given, while its wrappers always give one), and for
        `torch.tensor(mean)` of an argument no seen caller passed (a tensor given there is
        copied where it is).
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

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set = set()
        for meeting in model.obs.meetings:
            attr = meeting.host.value.attr
            if meeting.host.value.why != "attr" or attr is None or not meeting.where.accel:
                continue
            cls, name, statement, after_move = attr
            if (id(cls), name) in reported or cls.overrides_move():
                continue
            reported.add((id(cls), name))
            node = _assigned_value(statement) or meeting.host.value.node
            if after_move:
                # set in a hook that runs once the trainer has moved the module: a buffer
                # registered there would stay on the CPU as well
                message = (
                    f"`self.{name}` is a plain tensor attribute of `{cls.name}`, made on the CPU in a "
                    f"hook that runs after the module was moved, while it meets the module's tensors "
                    f"(line {{related_line}}); make it with `device=self.device`"
                )
                fix = None
            else:
                message = (
                    f"`self.{name}` is a plain tensor attribute of `{cls.name}`: `model.to(device)` "
                    f"leaves it on the CPU while it meets the module's tensors (line {{related_line}}); "
                    f"register it with `self.register_buffer(\"{name}\", ...)`"
                )
                fix = self.fix_for(name, node, statement)
            yield self.finding(
                node, message, related_node=meeting.node,
                related_label="meets device tensors here", fix=fix,
            )

    @staticmethod
    def fix_for(attr: str, value, statement) -> Optional[Fix]:
        if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
            return None
        assign = statement.body[0]
        if type(assign) is not cst.Assign or len(assign.targets) != 1 or assign.value is not value:
            return None
        text = f'self.register_buffer("{attr}", {code(value)}, persistent=False)'
        return Fix("register it as a buffer", Applicability.SAFE, (Edit("replace", assign, text),))


def _assigned_value(statement):
    """The value of `self.x = <value>` (where the finding and the fix go)."""
    if type(statement) is cst.SimpleStatementLine and len(statement.body) == 1:
        assign = statement.body[0]
        if type(assign) in (cst.Assign, cst.AnnAssign) and assign.value is not None:
            return assign.value
    return None
