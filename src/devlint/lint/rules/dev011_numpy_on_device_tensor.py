from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import Conversion
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class NumpyOnDeviceTensor(Rule):
    code = "DEV011"
    name = "numpy-on-device-tensor"
    fix_kind = Applicability.SAFE
    summary = "`.numpy()` on a tensor that lives on the device, without `.cpu()` first."
    what = """
        Finds `.numpy()` called on the output of a model this file moves to a device (also through
        `.detach()`, `.argmax()`, `torch.sigmoid(...)` and the like, in functions or at module level),
        or on a tensor moved with `.to(device)`, with no `.cpu()` in between; and a tensor the code
        moved to the device handed to `np.array`/`np.asarray`/`np.save` or another NumPy function
        that makes an array of it first (`np.concatenate`, `np.digitize`, `np.unique`,
        `np.percentile`, ...), scikit-learn (its functions and its estimators' methods,
        `PCA(...).fit_transform(x)`) or matplotlib (its functions and its figures' and axes'
        methods, `ax.hist(x)`), or a list of such tensors (per-batch accuracies, detached losses)
        handed to any NumPy function (`np.mean(accs)`) or to those libraries (`plt.plot(losses)`).
        What a model answers may be anything (a detector's dicts), so it counts as a tensor for
        those converters once a method only tensors have proves it (`.softmax(-1)`,
        `.detach()`, `.argmax(dim=-1)`: NumPy says `axis=`), or once the model is known to answer
        one: a `torch.nn` layer other than the recurrent ones, attention and the containers, or an
        `nn.Sequential` whose last layer is such a layer (`nn.Sequential(..., nn.Sigmoid())`).
        Lightning's epoch-end hooks run with the module on the device, and a Lightning
        `Callback`'s batch hooks get the batch the trainer moved there. A metrics
        or logging helper in another file of the project that gets such a tensor from this file
        has the finding in its own file, with this file's call as where it was reached. Outputs
        collected in a list and concatenated later, and outputs gathered with accelerate's `gather` or
        `gather_for_metrics` (which gather where the tensor is), are still on the device.
    """
    silent = """
        For an entry of an attribute of an object of unknown kind that was moved
        (`model.cfg["image_size"]` after `model.to(device)`: a config's list), for an item of a
        model's answer of unknown kind (`for img in pipe(prompt).images`: PIL images),
        for tensors moved back with `.cpu()` or `.to('cpu')`, for `.item()` and `.tolist()`, for
        a loss read with PyTorch 0.3's `loss.data[0]` (a Python number there; since 0.4 an
        index of a 0-dim tensor raises before numpy sees anything), for
        a tensor itself given to a NumPy function other than a converter (`np.mean(t)` calls
        `t.mean`), for
        tensors from the loader or from `torch.from_numpy`, for models that never move
        (CPU-only scripts), and under a test that the run device is the CPU (`if args.device ==
        "cpu":`, `if os.environ["RUN_DEVICE"] == "cpu":`: an environment variable named for the
        device reads like `args.device`).
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

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        # One root cause, one finding: `np.concatenate(all_targets)` on three lines of one
        # function is one list of device tensors, filled in one place, reported where numpy
        # first meets it (a tensor handed to numpy twice is two places to fix, each found)
        converted: set = set()
        for conversion in model.obs.conversions:
            value = conversion.value
            if id(conversion.node) in reported or not conversion.where.accel or value.assumed:
                continue
            if value.why not in ("moved", "output", "data", "batch", "param"):
                continue
            reported.add(id(conversion.node))
            receiver = code(conversion.receiver)
            if conversion.held:
                key = (id(conversion.where.function), receiver)
                if key in converted:
                    continue
                converted.add(key)
            where = "it was moved with `.to(device)`" if value.why == "moved" else \
                "it comes from a model on the device" if value.why == "output" else "it is on the device"
            if conversion.held:
                yield self.finding(conversion.node, (
                    f"`{receiver}` holds tensors on the device ({where}); numpy builds its array "
                    f"from them one by one and needs CPU tensors: collect `.item()` or `.cpu()` "
                    f"values instead"))
                continue
            if self.is_numpy_method(conversion):
                message = (f"`{receiver}` lives on the device ({where}); `.numpy()` needs a CPU "
                           f"tensor: call `.cpu()` first")
            else:
                message = (f"`{receiver}` lives on the device ({where}); numpy needs a CPU tensor: "
                           f"pass `{receiver}.cpu()`")
            yield self.finding(conversion.node, message, fix=self.fix_for(conversion))

    @staticmethod
    def is_numpy_method(conversion: Conversion) -> bool:
        func = getattr(conversion.node, "func", None)
        return type(func) is cst.Attribute and func.attr.value == "numpy" and func.value is conversion.receiver

    def fix_for(self, conversion: Conversion) -> Optional[Fix]:
        value = conversion.value
        detached = any(type(sub) is cst.Attribute and sub.attr.value in ("detach", "data", "detach_")
                       for sub in _chain(conversion.receiver))
        needs_detach = not detached and not conversion.where.no_grad and value.why != "moved"
        if self.is_numpy_method(conversion):
            text = "detach().cpu().numpy" if needs_detach else "cpu().numpy"
            return Fix(f"call `.{text[:-6]}` before `.numpy()`", Applicability.SAFE,
                       (Edit("replace", conversion.node.func.attr, text),))
        suffix = ".detach().cpu()" if needs_detach else ".cpu()"
        return Fix(f"pass `{code(conversion.receiver)}{suffix}`", Applicability.SAFE,
                   (Edit("replace", conversion.receiver, f"{code(conversion.receiver)}{suffix}"),))


def _chain(node) -> Iterator:
    while True:
        yield node
        if type(node) is cst.Call:
            node = node.func
        elif type(node) in (cst.Attribute, cst.Subscript):
            node = node.value
        else:
            return
