from __future__ import annotations

from typing import Iterator, Optional

from devlint.lint.facts import Facts, TorchLoad
from devlint.lint.findings import Applicability, Fix, RawFinding
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import add_keyword_fix, device_in_reach
from devlint.lint.syntax import positional_args


class LoadWithoutMapLocation(Rule):
    code = "DEV008"
    name = "load-without-map-location"
    fix_kind = Applicability.SAFE
    summary = "`torch.load` without `map_location` in code meant to run without a GPU too."
    what = """
        Finds `torch.load(...)` with no `map_location` (keyword or second positional argument) in a
        file that chooses its device with a fallback (`torch.cuda.is_available()`), so the file is
        meant to run on a CPU-only machine as well.
    """
    silent = """
        When the load sits under a test about the device, when the file saves to the same path
        itself (a checkpoint written and read by the same run lives on the run's own device), and
        for in-memory buffers.
    """
    why = """
        `torch.load` restores every tensor onto the device it was saved from. A checkpoint
        written on a GPU machine holds CUDA tensors, so loading it on a laptop or a CPU CI
        runner fails with "Attempting to deserialize object on a CUDA device but
        torch.cuda.is_available() is False", exactly on the machines the fallback was written
        for. Even on a GPU machine, every rank loading onto cuda:0 piles memory on one GPU.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model.load_state_dict(torch.load("checkpoint.pt"))
        model.to(device)
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model.load_state_dict(torch.load("checkpoint.pt", map_location=device))
        model.to(device)
    """
    fix = """
        Add `map_location=device` (the device variable in reach), or `map_location='cpu'` when
        there is none: `load_state_dict` copies the tensors onto the model's device anyway.
    """

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        if not facts.device_fallback:
            return
        for load in facts.torch_loads:
            if not self.restores_saved_devices(load, facts):
                continue
            device = device_in_reach(facts, load.scope)
            target = device or "'cpu'"
            message = (
                f"`torch.load({load.source})` restores tensors onto the device they were saved "
                f"from, and this file also runs without a GPU; pass `map_location={target}`"
            )
            yield self.finding(load.call, message, fix=self.fix_for(load, target))

    @staticmethod
    def restores_saved_devices(load: TorchLoad, facts: Facts) -> bool:
        call = load.call
        if load.guarded or any(a.star for a in call.args):
            return False
        if len(positional_args(call)) >= 2 or any(
            a.keyword is not None and a.keyword.value == "map_location" for a in call.args
        ):
            return False
        if not load.source or load.source in facts.saved_paths:
            return False
        return not facts.is_in_memory_buffer(load.source, load.scope)

    @staticmethod
    def fix_for(load: TorchLoad, target: str) -> Optional[Fix]:
        return add_keyword_fix(load.call, f"map_location={target}", f"load onto {target}")
