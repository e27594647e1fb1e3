from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.torch_api import LEGACY_TYPE_DTYPES
from devlint.lint.model.values import Place
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code
from devlint.lint.syntax import dotted


class LegacyTypeCast(Rule):
    code = "DEV021"
    name = "legacy-type-cast"
    fix_kind = Applicability.SAFE
    summary = "A device tensor is cast with a legacy CPU tensor type, which copies it to the CPU."
    what = """
        Finds `t.type(torch.FloatTensor)` (`torch.LongTensor`, `torch.ByteTensor`, ...) on a
        tensor the code put on the device, when the result then meets device tensors (a model
        on the device, an operation with device tensors).
    """
    silent = """
        For dtypes (`.type(torch.float32)`, `.float()`, `.bool()`), for `torch.cuda.*Tensor`
        types, on tensors not proven to be on the device, when the CPU copy is what the code
        uses (`.type(torch.FloatTensor).numpy()`, a list of CPU results), and in tests.
    """
    why = """
        `torch.FloatTensor` is the CPU float tensor type, not the float dtype: `.type()` with it
        converts the dtype and copies the tensor to the CPU. The next operation with a device
        tensor fails with "Expected all tensors to be on the same device", or a mask indexes
        across devices. `.type(torch.float32)` changes the dtype and keeps the device.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        scores = torch.randn(4, 4).to(device)
        mask = (scores > 0).type(torch.FloatTensor)
        masked = scores * mask
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        scores = torch.randn(4, 4).to(device)
        mask = (scores > 0).type(torch.float32)
        masked = scores * mask
    """
    fix = """
        Cast to the dtype: `.type(torch.float32)` for `torch.FloatTensor`, `torch.int64` for
        `torch.LongTensor`, `torch.uint8` for `torch.ByteTensor`, `torch.bool` for
        `torch.BoolTensor` (a safe fix: the tensor keeps its device, and on the CPU nothing
        changes).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        casts = {id(e.node): e for e in model.obs.events if e.kind == "cast"}
        if not casts:
            return
        reported: set[int] = set()
        for meeting in model.obs.meetings:
            host = meeting.host.value
            if host.why != "cast" or host.place is not Place.HOST:
                continue
            event = casts.get(id(host.node))
            if event is None or id(event.node) in reported:
                continue
            if not event.where.accel or event.where.in_test or not meeting.where.accel:
                continue
            reported.add(id(event.node))
            kind = code(event.other)
            yield self.finding(
                event.node,
                f"`.type({kind})` copies this device tensor to the CPU (`{kind}` is a CPU tensor "
                f"type, not a dtype), and the copy meets device tensors at line "
                f"{{related_line}}; cast to the dtype instead",
                related_node=meeting.node, related_label="the copy meets the device",
                fix=self.fix_for(event.other))

    @staticmethod
    def fix_for(kind: cst.BaseExpression) -> Optional[Fix]:
        spelled = dotted(kind) if type(kind) is cst.Attribute else None
        if spelled is None:
            return None  # `FloatTensor` imported bare: which name holds torch is unknown here
        prefix, name = spelled.rsplit(".", 1)
        dtype = LEGACY_TYPE_DTYPES.get(name)
        if dtype is None:
            return None
        return Fix(f"cast to `{prefix}.{dtype}`", Applicability.SAFE,
                   (Edit("replace", kind, f"{prefix}.{dtype}"),))
