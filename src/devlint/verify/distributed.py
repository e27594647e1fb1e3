"""torch.distributed in a verify run.

Without torchrun (one process), a script still calls `init_process_group`, usually with a fixed
MASTER_PORT: two device runs side by side (or any other job on the machine) would fight over
that port. With world_size 1 a HashStore replaces the rendezvous. Under torchrun (`--nproc N`)
the rendezvous is torchrun's, as it is in production.

On the simulated device NCCL, which needs real GPUs, becomes gloo, which runs the same
collectives on the CPU tensors underneath. What NCCL refuses, the stand-in refuses too, with
NCCL's words (NcclChecks): CPU tensors in a collective of an nccl-only group (a model wrapped
in DDP before it was moved), and two ranks of a node on one GPU ("Duplicate GPU detected").
Runs in the verify child only (imports torch).
"""
from __future__ import annotations

import functools
import inspect
import os
import socket


def patch_init_process_group(torch, simulated: bool, under_torchrun: bool,
                             notes: list[str]) -> None:
    dist = torch.distributed
    if not dist.is_available():
        return
    original = dist.init_process_group
    signature = inspect.signature(original)

    checks = NcclChecks(torch) if simulated else None

    @functools.wraps(original)
    def init_process_group(*args, **kwargs):
        arguments = signature.bind(*args, **kwargs).arguments
        if simulated:
            backend = _nccl_as_gloo(arguments, notes)
        if (not under_torchrun and _world_size(arguments) == 1
                and arguments.get("store") is None):
            arguments.pop("init_method", None)
            arguments.update(store=dist.HashStore(), world_size=1, rank=0)
        result = original(**arguments)
        if checks is not None:
            checks.served(dist.distributed_c10d._get_default_group(), backend)
        return result

    dist.init_process_group = init_process_group
    if checks is not None:
        checks.install(notes)


# The collectives of torch.distributed (the names user code and DDP call) and where their
# process group is: a keyword, or the first argument.
COLLECTIVES = ("all_reduce", "all_gather", "all_gather_into_tensor", "reduce_scatter",
               "reduce_scatter_tensor", "broadcast", "reduce", "gather", "scatter", "all_to_all",
               "all_to_all_single", "send", "recv", "isend", "irecv")
GROUP_FIRST = ("_verify_params_across_processes", "_broadcast_coalesced")  # DDP's start
NO_CPU_BACKEND = "No backend type associated with device type cpu"


class NcclChecks:
    """What real NCCL refuses, on the gloo that serves it on the simulated device."""

    def __init__(self, torch):
        self.torch = torch
        self.gpu_only: set[int] = set()  # ids of groups asked for as plain "nccl"
        self.nccl: set[int] = set()  # ids of groups whose GPU tensors NCCL would carry
        self.claimed = False  # this rank told the others its GPU (the first collective)

    def served(self, group, backend) -> None:
        """`group` was asked for with `backend`, and runs on gloo."""
        text = backend.lower() if isinstance(backend, str) else ""
        if text == "nccl":
            self.gpu_only.add(id(group))
        if "nccl" in text or backend is None:
            self.nccl.add(id(group))

    def install(self, notes: list[str]) -> None:
        dist = self.torch.distributed
        for name in COLLECTIVES + GROUP_FIRST:
            original = getattr(dist, name, None)
            if original is not None:
                setattr(dist, name, self.checked(original, name in GROUP_FIRST))
        original_new_group = dist.new_group
        signature = inspect.signature(original_new_group)

        @functools.wraps(original_new_group)
        def new_group(*args, **kwargs):
            arguments = signature.bind(*args, **kwargs).arguments
            backend = _nccl_as_gloo(arguments, notes)
            group = original_new_group(**arguments)
            if group is not None and not isinstance(group, int):
                default = dist.distributed_c10d._get_default_group()
                self.served(group, backend if backend is not None else (
                    "nccl" if id(default) in self.gpu_only else None))
            return group

        dist.new_group = new_group

    def checked(self, original, group_first: bool):
        signature = inspect.signature(original) if not group_first else None

        @functools.wraps(original)
        def collective(*args, **kwargs):
            if group_first:
                group, tensors = args[0] if args else kwargs.get("process_group"), args[1:2]
            else:
                bound = signature.bind(*args, **kwargs).arguments
                group, tensors = bound.get("group"), list(bound.values())
            self.check(group, tensors)
            return original(*args, **kwargs)

        return collective

    def check(self, group, arguments) -> None:
        from devlint.verify.shadow.tensor import index_of

        dist = self.torch.distributed
        if group is None or group is getattr(dist.group, "WORLD", None):
            group = dist.distributed_c10d._get_default_group()
        tensors = [t for arg in arguments for t in (arg if isinstance(arg, (list, tuple))
                                                    else (arg,))
                   if isinstance(t, self.torch.Tensor)]
        if id(group) in self.gpu_only and any(index_of(t) is None for t in tensors):
            raise RuntimeError(NO_CPU_BACKEND)
        gpus = {index_of(t) for t in tensors} - {None}
        default = dist.distributed_c10d._get_default_group()
        if gpus and group is default and id(group) in self.nccl and not self.claimed:
            self.claimed = True
            self.claim_gpu(min(gpus))

    def claim_gpu(self, index: int) -> None:
        """NCCL's communicator set-up: every rank says which GPU it is on; two ranks of one
        node on the same GPU fail, as NCCL fails them."""
        dist = self.torch.distributed
        store = dist.distributed_c10d._get_default_store()
        rank, size = dist.get_rank(), dist.get_world_size()
        node = os.environ.get("GROUP_RANK") or socket.gethostname()
        store.set(f"devlint/gpu/{rank}", f"{node}/{index}")
        keys = [f"devlint/gpu/{other}" for other in range(size)]
        store.wait(keys)
        for other in range(size):
            if other != rank and store.get(keys[other]).decode() == f"{node}/{index}":
                raise dist.DistBackendError(
                    "NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details), as NCCL "
                    "reports it (devlint cuda-sim)\n"
                    "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                    "Last error:\n"
                    f"Duplicate GPU detected : rank {rank} and rank {other} both on CUDA "
                    f"device {index}")


def _nccl_as_gloo(arguments: dict, notes: list[str]):
    """Ask gloo for what was asked of NCCL; returns the backend asked for."""
    backend = arguments.get("backend")
    if isinstance(backend, str) and "nccl" in backend.lower():
        arguments["backend"] = backend.lower().replace("nccl", "gloo")
        arguments.pop("device_id", None)  # eager NCCL initialisation on that device
        text = "torch.distributed: nccl ran as gloo on the simulated device"
        if text not in notes:
            notes.append(text)
    return backend


def _world_size(arguments: dict) -> int:
    size = arguments.get("world_size", -1)
    if size in (None, -1):
        try:
            size = int(os.environ.get("WORLD_SIZE", "-1"))
        except ValueError:
            return -1
    return size
