from __future__ import annotations

from typing import Iterator, Optional

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import DeviceSpec
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class FixedGpuIndexInDistributed(Rule):
    code = "DEV013"
    name = "fixed-gpu-index-in-distributed"
    fix_kind = Applicability.SAFE
    summary = "A literal GPU index (`cuda:0`, `.cuda(0)`, `set_device(0)`) in multi-process code."
    what = """
        In a file that starts a process group (`init_process_group`) or reads `LOCAL_RANK`, finds a
        fixed GPU index: `'cuda:0'` (and any `'cuda:N'`) in a device position, `.cuda(0)`, `.to(0)`,
        `torch.cuda.set_device(0)`, `torch.device('cuda', 0)` and `device_ids=[0]`.
    """
    silent = """
        Under a test about the rank or the world size (`if rank == 0:`), in the single-process
        arm of a distributed switch (the `else` of `if args.distributed:` or `if
        train_config.enable_fsdp:`; the switch's own arm is multi-process and reported), in
        the arm beside one that starts the process group (`if len(gpu_ids) == 1:
        set_device(0) else: init_dist(opt, local_rank)`, where the helper's own body calls
        `init_process_group`),
        in `map_location` dictionaries that remap devices, in files that set `CUDA_VISIBLE_DEVICES`
        (then index 0 is each process's own GPU), in functions that name several GPUs (model
        parallelism), and in tests, which pin devices on purpose.
    """
    why = """
        Every process of a distributed job runs the same file. A literal index sends all of
        them to the same GPU: the ranks pile onto GPU 0, which runs out of memory while the
        other GPUs idle, or NCCL fails with "Duplicate GPU detected". Each process must use the
        GPU of its local rank.
    """
    bad = """
        import os
        import torch
        import torch.distributed as dist

        dist.init_process_group("nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        torch.cuda.set_device(0)
        model = torch.nn.Linear(4, 1).to(f"cuda:{local_rank}")
    """
    good = """
        import os
        import torch
        import torch.distributed as dist

        dist.init_process_group("nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        torch.cuda.set_device(local_rank)
        model = torch.nn.Linear(4, 1).to(f"cuda:{local_rank}")
    """
    fix = """
        Use the local rank: `torch.cuda.set_device(local_rank)`, `f"cuda:{local_rank}"`,
        `device_ids=[local_rank]` (a safe fix, offered when a `local_rank` variable is in reach).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        if not model.distributed or model.visible_devices:
            return
        specs = [s for s in model.obs.devices if s.fixed_index]
        parallel = self.functions_naming_several_gpus(specs)
        reported: set[int] = set()
        for spec in specs:
            if spec.where.rank_guarded or spec.where.in_test or id(spec.node) in reported:
                continue
            if id(spec.where.function) in parallel:
                continue
            owner = getattr(spec.where.function, "owner", None)
            if owner is not None and owner.visible_devices:
                continue  # another file's code, which pins one GPU per process itself
            reported.add(id(spec.node))
            message = (
                f"`{code(spec.node)}` names one fixed GPU in code that runs once per process: "
                f"every rank lands on that GPU; use the local rank (`LOCAL_RANK`) instead"
            )
            yield self.finding(spec.node, message, fix=self.fix_for(spec, model))

    @staticmethod
    def functions_naming_several_gpus(specs: list) -> set[int]:
        """Functions that name two or more GPUs (`.to(0)` and `.to(1)`): model or pipeline
        parallelism spreads one process over several GPUs on purpose."""
        seen: dict[int, set] = {}
        for spec in specs:
            seen.setdefault(id(spec.where.function), set()).add(spec.device.index)
        return {function for function, indices in seen.items() if len(indices) > 1}

    @staticmethod
    def fix_for(spec: DeviceSpec, model: Model) -> Optional[Fix]:
        bound = model.bound_at(spec.node)
        rank = "local_rank" if "local_rank" in bound else None
        if rank is None:
            return None
        is_string = type(spec.node).__name__ == "SimpleString"
        text = f'f"cuda:{{{rank}}}"' if is_string else rank
        return Fix(f"use `{rank}`", Applicability.SAFE, (Edit("replace", spec.node, text),))
