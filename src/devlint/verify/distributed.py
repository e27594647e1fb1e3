"""torch.distributed in a verify run.

Without torchrun (one process), a script still calls `init_process_group`, usually with a fixed
MASTER_PORT: two device runs side by side (or any other job on the machine) would fight over
that port. With world_size 1 a HashStore replaces the rendezvous. Under torchrun (`--nproc N`)
the rendezvous is torchrun's, as it is in production.

On the simulated device NCCL, which needs real GPUs, becomes gloo, which runs the same
collectives on the CPU tensors underneath.
Runs in the verify child only (imports torch).
"""
from __future__ import annotations

import functools
import inspect
import os


def patch_init_process_group(torch, simulated: bool, under_torchrun: bool,
                             notes: list[str]) -> None:
    dist = torch.distributed
    if not dist.is_available():
        return
    original = dist.init_process_group
    signature = inspect.signature(original)

    @functools.wraps(original)
    def init_process_group(*args, **kwargs):
        arguments = signature.bind(*args, **kwargs).arguments
        if simulated:
            _nccl_as_gloo(arguments, notes)
        if (not under_torchrun and _world_size(arguments) == 1
                and arguments.get("store") is None):
            arguments.pop("init_method", None)
            arguments.update(store=dist.HashStore(), world_size=1, rank=0)
        return original(**arguments)

    dist.init_process_group = init_process_group


def _nccl_as_gloo(arguments: dict, notes: list[str]) -> None:
    backend = arguments.get("backend")
    if isinstance(backend, str) and "nccl" in backend.lower():
        arguments["backend"] = backend.lower().replace("nccl", "gloo")
        arguments.pop("device_id", None)  # eager NCCL initialisation on that device
        text = "torch.distributed: nccl ran as gloo on the simulated device"
        if text not in notes:
            notes.append(text)


def _world_size(arguments: dict) -> int:
    size = arguments.get("world_size", -1)
    if size in (None, -1):
        try:
            size = int(os.environ.get("WORLD_SIZE", "-1"))
        except ValueError:
            return -1
    return size
