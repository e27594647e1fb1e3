from __future__ import annotations

from typing import Iterator, Optional

from devlint.lint.facts import Facts, GpuIndex
from devlint.lint.findings import Applicability, Edit, Fix, RawFinding
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
        Under a test about the rank or the world size (`if rank == 0:`, `if not args.distributed:`),
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

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        if not facts.distributed or facts.per_process_visibility:
            return
        model_parallel = self.scopes_naming_several_gpus(facts)
        for index in facts.gpu_indices:
            if index.rank_guarded or id(index.scope) in model_parallel:
                continue
            message = (
                f"`{code(index.node)}` names one fixed GPU in code that runs once per process: "
                f"every rank lands on that GPU; use the local rank (`LOCAL_RANK`) instead"
            )
            yield self.finding(index.node, message, fix=self.fix_for(index, facts))

    @staticmethod
    def scopes_naming_several_gpus(facts: Facts) -> set[int]:
        """Functions that name two or more GPUs (`.to(0)` and `.to(1)`): model or pipeline
        parallelism spreads one process over several GPUs on purpose."""
        seen: dict[int, set[str]] = {}
        for index in facts.gpu_indices:
            value = code(index.node).strip("'\"").replace("cuda:", "")
            seen.setdefault(id(index.scope), set()).add(value)
        return {scope for scope, values in seen.items() if len(values) > 1}

    @staticmethod
    def fix_for(index: GpuIndex, facts: Facts) -> Optional[Fix]:
        rank = local_rank_in_reach(index, facts)
        if rank is None:
            return None
        text = f'f"cuda:{{{rank}}}"' if index.kind == "string" else rank
        return Fix(f"use `{rank}`", Applicability.SAFE, (Edit("replace", index.node, text),))


def local_rank_in_reach(index: GpuIndex, facts: Facts) -> Optional[str]:
    if facts.resolve("local_rank", index.scope) is not None:
        return "local_rank"
    cls = index.scope.class_scope
    if cls is not None and "self.local_rank" in cls.events and "self" in index.scope.params:
        return "self.local_rank"
    return None
