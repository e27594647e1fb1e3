"""Run every shadow case in one child process and write the outcomes as JSON.

usage: python run_cases.py OUT.json [multi-gpu]

Order matters and mirrors a verify child: a recorder-style wrapper on Tensor.to is installed
before shadow.install(), more wrappers after it; then the cases run, each in a fresh namespace
compiled under a virtual user root so that creation sites resolve to the snippet's lines.
Also measured here, before anything is patched: the losses of a plain CPU loop, to compare with
the same loop under the shadow.
"""
from __future__ import annotations

import functools
import importlib
import json
import os
import sys
import traceback

import torch

from devlint.verify import shadow

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from shadow_cases.cases import (  # noqa: E402
    BAD, GOOD, MULTI_GPU_BAD, MULTI_GPU_DEVICES, MULTI_GPU_GOOD, MULTI_GPU_HOME, PREAMBLE,
)

USER_ROOT = "/devlint-shadow-cases"
WRAPPER_CALLS: dict[str, int] = {}


def training_losses(device: str, steps: int = 30) -> list[float]:
    """A small MLP + Adam + cross_entropy loop; the same on both sides, but for the device."""
    torch.manual_seed(0)
    data, labels = torch.randn(64, 10), torch.randint(0, 3, (64,))
    model = torch.nn.Sequential(torch.nn.Linear(10, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for step in range(steps):
        index = torch.arange(step % 4 * 16, step % 4 * 16 + 16)
        x, y = data[index].to(device), labels[index].to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(loss.item())
    return losses


def refusal_message() -> str | None:
    real = torch.__version__
    torch.__version__ = "9.9.0"
    try:
        shadow.refuse_unknown_torch()
        return None
    except shadow.ShadowUnsupported as exc:
        return str(exc)
    finally:
        torch.__version__ = real


def counting_wrapper(owner, name: str) -> None:
    """What the lead's recorder does: a Python wrapper that calls the original."""
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        WRAPPER_CALLS[name] = WRAPPER_CALLS.get(name, 0) + 1
        return original(*args, **kwargs)

    setattr(owner, name, wrapper)


def count_step(optimizer, args, kwargs) -> None:
    WRAPPER_CALLS["step"] = WRAPPER_CALLS.get("step", 0) + 1


def run_case(name: str, source: str) -> dict:
    code = compile(PREAMBLE + source, f"{USER_ROOT}/{name}.py", "exec")
    try:
        exec(code, {"__name__": "__main__"})
        return {"raised": None}
    except Exception as exc:  # noqa: BLE001 - the outcome is the data
        frames = traceback.extract_tb(exc.__traceback__)
        return {
            "raised": type(exc).__name__,
            "message": str(exc),
            "origin": getattr(exc, "devlint_cpu_origin", None),
            "where": [f"{f.filename}:{f.lineno}" for f in frames[-4:]],
        }


def main_multi_gpu(out_path: str) -> None:
    """The multi-GPU cases, on the machine torchrun's rank MULTI_GPU_HOME sees."""
    shadow.install(user_root=USER_ROOT, devices=MULTI_GPU_DEVICES, home=MULTI_GPU_HOME)
    cases = {}
    for name, source in [*MULTI_GPU_GOOD.items(), *((n, b.source) for n, b in MULTI_GPU_BAD.items())]:
        if cases:  # the first case looks at the machine as torchrun starts the rank
            torch.cuda.set_device(MULTI_GPU_HOME)
        cases[name] = run_case(name, source)
    with open(out_path, "w", encoding="utf-8") as handle:
        json.dump({"cases": cases}, handle, indent=1)
    sys.stdout.flush()
    os._exit(0)


def main(out_path: str) -> None:
    result = {"plain_losses": training_losses("cpu"), "refusal": refusal_message()}
    counting_wrapper(torch.Tensor, "to")
    shadow.install(user_root=USER_ROOT)
    for owner, name in ((torch.Tensor, "cuda"), (torch.Tensor, "backward"),
                        (torch.nn.Module, "_apply"), (torch.autograd, "backward")):
        counting_wrapper(owner, name)
    optimizer_module = importlib.import_module("torch.optim.optimizer")
    optimizer_module.register_optimizer_step_post_hook(count_step)
    result["shadow_losses"] = training_losses("cuda")
    result["cases"] = {name: run_case(name, src) for name, src in GOOD.items()}
    result["cases"].update({name: run_case(name, bad.source) for name, bad in BAD.items()})
    result["wrapper_calls"] = WRAPPER_CALLS
    with open(out_path, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
    sys.stdout.flush()
    os._exit(0)  # skip torch's teardown


if __name__ == "__main__":
    if sys.argv[2:] == ["multi-gpu"]:
        main_multi_gpu(sys.argv[1])
    else:
        main(sys.argv[1])
