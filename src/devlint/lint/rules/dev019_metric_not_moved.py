from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import Event
from devlint.lint.model.values import Module
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code, device_of


class MetricNotMoved(Rule):
    code = "DEV019"
    name = "metric-not-moved"
    fix_kind = Applicability.SAFE
    summary = "A metric object that was never moved is updated with device tensors."
    what = """
        Finds a torchmetrics metric (`Accuracy(...)`, `MulticlassF1Score(...)`,
        `MetricCollection(...)`) built on the CPU and never moved, that the code updates or
        calls with tensors it put on the device (`metric.update(preds, target)`,
        `metric(preds, target)`), also through a loop over a dict or list of metrics some of
        which are moved (`for m in metrics.values(): m.update(preds, y)`); also a metric
        written by hand as an `nn.Module` of this file (it defines `update` and `compute` and
        keeps its state in buffers or parameters).
    """
    silent = """
        When the metric is moved (`Accuracy(...).to(device)`, `metric.to(device)`), when it is a
        submodule of a model that is moved (`self.acc = Accuracy()` in a `LightningModule` or
        an `nn.Module`), when it is given CPU tensors (`metric.update(preds.cpu(), y.cpu())`),
        when the tensors' device is not proven, and in tests.
    """
    why = """
        A torchmetrics metric is an `nn.Module` whose state (counts, sums, confusion matrices)
        lives in buffers on the device it was built on. Updated with CUDA tensors while its
        state is on the CPU, it fails with "Encountered different devices in metric
        calculation", or copies every batch back to the host.
    """
    bad = """
        import torch
        import torchmetrics

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(8, 3).to(device)
        accuracy = torchmetrics.Accuracy(task="multiclass", num_classes=3)
        x = torch.randn(4, 8).to(device)
        y = torch.randint(0, 3, (4,)).to(device)
        accuracy.update(model(x), y)
    """
    good = """
        import torch
        import torchmetrics

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(8, 3).to(device)
        accuracy = torchmetrics.Accuracy(task="multiclass", num_classes=3).to(device)
        x = torch.randn(4, 8).to(device)
        y = torch.randint(0, 3, (4,)).to(device)
        accuracy.update(model(x), y)
    """
    fix = """
        Move the metric where the tensors are: `Accuracy(...).to(device)` (a safe fix at the
        metric's construction, offered when the device the tensors were moved with is bound
        there).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        metrics = {e.subject.ident: e for e in model.obs.events if e.kind == "metric"}
        if not metrics:
            return
        moved = {move.before.ident for move in model.obs.transfers if type(move.before) is Module}
        reported: set[int] = set()
        for event in model.obs.events:
            if event.kind != "host-call":
                continue
            built = metrics.get(event.subject.ident)
            if built is None or built.subject.ident in moved or id(built.node) in reported:
                continue
            if not event.where.accel or event.where.in_test:
                continue
            # one finding per metric, where it is built: the root cause, and where the fix goes
            reported.add(id(built.node))
            operand_node, tensor = event.other
            yield self.finding(
                built.node,
                f"the metric `{code(built.node.func)}` is never moved, and line {{related_line}} "
                f"gives it `{code(operand_node)}`, a tensor on the device: its state is on the "
                f"CPU (\"Encountered different devices in metric calculation\"); move the metric "
                f"with `.to(device)`",
                related_node=event.node, related_label="updated with device tensors here",
                fix=self.fix_for(built, tensor, model))

    @staticmethod
    def fix_for(built: Event, tensor, model: Model) -> Optional[Fix]:
        node = built.node
        if type(node) is not cst.Call:
            return None
        device = device_of(tensor, model.bound_at(node))
        if device is None:
            return None
        return Fix(f"move the metric with `.to({device})`", Applicability.SAFE,
                   (Edit("replace", node, f"{code(node)}.to({device})"),))
