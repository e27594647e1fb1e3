from __future__ import annotations

from typing import Iterator, Optional

from devlint.lint.facts import Facts, Moved, NumpyCall
from devlint.lint.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class NumpyOnDeviceTensor(Rule):
    code = "DEV011"
    name = "numpy-on-device-tensor"
    fix_kind = Applicability.SAFE
    summary = "`.numpy()` on a tensor that lives on the device, without `.cpu()` first."
    what = """
        Finds `.numpy()` called on the output of a model this file moves to a device (also through
        `.detach()`, `.argmax()`, `torch.sigmoid(...)` and the like), or on a tensor moved with
        `.to(device)`, with no `.cpu()` in between.
    """
    silent = """
        For tensors moved back with `.cpu()` or `.to('cpu')`, for `.item()` and `.tolist()`, for
        tensors from the loader or from `torch.from_numpy`, for outputs gathered by `accelerate`,
        and for models that never move (CPU-only scripts).
    """
    why = """
        NumPy arrays live in host memory, so `Tensor.numpy()` works only for CPU tensors and
        raises "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the
        tensor to host memory first" for GPU ones. On a CPU-only machine the call succeeds,
        so the evaluation code that collects predictions is the part that breaks when the
        model first runs on a GPU. Outputs that require grad also need `.detach()`.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 3).to(device)
        with torch.no_grad():
            for x, y in loader:
                x = x.to(device)
                preds = model(x).argmax(1).numpy()
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 3).to(device)
        with torch.no_grad():
            for x, y in loader:
                x = x.to(device)
                preds = model(x).argmax(1).cpu().numpy()
    """
    fix = """
        Insert `.cpu()` before `.numpy()`, and `.detach()` too when the value comes from a model
        outside `torch.no_grad()` (a safe fix).
    """

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        for numpy in facts.numpy_calls:
            where = self.device_side(numpy, facts)
            if where is None:
                continue
            receiver = code(numpy.call.func.value)  # type: ignore[attr-defined]
            message = (
                f"`{receiver}` lives on the device ({where}); `.numpy()` needs a CPU tensor: "
                f"call `.cpu()` first"
            )
            yield self.finding(numpy.call, message, fix=self.fix_for(numpy))

    @staticmethod
    def device_side(numpy: NumpyCall, facts: Facts) -> Optional[str]:
        if isinstance(numpy.value, Moved):
            return "it was moved with `.to(device)`"
        model = facts.device_model(numpy.value.callee, numpy.scope, numpy.seq)
        if model is None:
            return None
        return f"the output of `{model.key}`, a model on the device"

    @staticmethod
    def fix_for(numpy: NumpyCall) -> Fix:
        needs_detach = not numpy.detached and not numpy.no_grad and not isinstance(numpy.value, Moved)
        text = "detach().cpu().numpy" if needs_detach else "cpu().numpy"
        attr = numpy.call.func.attr  # type: ignore[attr-defined]
        return Fix(f"call `.{text[:-6]}` before `.numpy()`", Applicability.SAFE, (Edit("replace", attr, text),))
