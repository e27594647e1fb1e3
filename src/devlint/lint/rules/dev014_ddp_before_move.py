from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import Transfer, Wrap
from devlint.lint.model.torch_api import DDP
from devlint.lint.model.values import Maybe, Module, Place
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code


class DdpBeforeMove(Rule):
    code = "DEV014"
    name = "ddp-before-move"
    fix_kind = Applicability.UNSAFE
    summary = "A module is wrapped in `DistributedDataParallel` while it is still on the CPU."
    what = """
        Finds `DistributedDataParallel(model)` (`DDP(model)`) where `model` is still on the CPU in
        the world with a GPU, while the file moves it to the GPU only afterwards (`model.to(device)`
        on the module or on the wrapper) or starts an NCCL process group, which carries GPU tensors
        only.
    """
    silent = """
        When the module was moved before the wrap on every path with a GPU (`DDP(model.to(device))`,
        `model.cuda()` under `if use_cuda:` first), for CPU training with gloo (the module stays
        on the CPU and is never moved), and in tests.
    """
    why = """
        DDP takes the module as it finds it: at construction it checks the parameters across the
        ranks and broadcasts rank 0's, through the process group, from the device they are on,
        and builds its gradient buckets there. With NCCL a CPU module fails at once ("No backend
        type associated with device type cpu"); with `device_ids` DDP refuses a CPU module; and
        moving the module afterwards leaves DDP's buckets and hooks behind on the CPU.
    """
    bad = """
        import os
        import torch
        import torch.distributed as dist
        from torch.nn.parallel import DistributedDataParallel as DDP

        dist.init_process_group("nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        device = torch.device("cuda", local_rank)
        model = DDP(torch.nn.Linear(4, 1))
        model.to(device)
    """
    good = """
        import os
        import torch
        import torch.distributed as dist
        from torch.nn.parallel import DistributedDataParallel as DDP

        dist.init_process_group("nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        device = torch.device("cuda", local_rank)
        model = DDP(torch.nn.Linear(4, 1).to(device), device_ids=[local_rank])
    """
    fix = """
        Move the module before wrapping it: `DDP(model.to(device))` (an unsafe fix, offered when
        the later move names a device already bound at the wrap; the later move becomes a no-op).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        reported: set[int] = set()
        for wrap in model.obs.wraps:
            if wrap.qualname not in DDP or id(wrap.node) in reported:
                continue
            module = wrap.module.value if type(wrap.module) is Maybe else wrap.module
            if not self.on_the_cpu(wrap, module):
                continue
            later = self.later_move(module, model)
            if later is None and not model.nccl_required:
                continue  # CPU training with gloo: the module is meant to stay where it is
            reported.add(id(wrap.node))
            yield self.finding(wrap.node, self.message(wrap, later), **self.related(later),
                               fix=self.fix_for(wrap, later, model))

    @staticmethod
    def on_the_cpu(wrap: Wrap, module) -> bool:
        return (type(module) is Module and module.place is Place.HOST and wrap.where.accel
                and not wrap.where.in_test and not module.loss)

    @staticmethod
    def later_move(module: Module, model: Model) -> Optional[Transfer]:
        """A move of the same module (or of its wrapper) onto the GPU. The module was on the
        CPU at the wrap, so this move comes after it."""
        for move in model.obs.transfers:
            before = move.before.value if type(move.before) is Maybe else move.before
            if (type(before) is Module and before.ident == module.ident and module.ident
                    and getattr(move.after, "place", None) is Place.DEVICE):
                return move
        return None

    @staticmethod
    def message(wrap: Wrap, later: Optional[Transfer]) -> str:
        head = f"`{code(wrap.node.func)}` wraps a module that is still on the CPU"
        if later is not None:
            return (f"{head} and moved to the GPU only afterwards (line {{related_line}}): DDP "
                    f"broadcasts and buckets the parameters where it finds them; move the "
                    f"module before wrapping it")
        return (f"{head}, and NCCL carries GPU tensors only: move the module to the rank's "
                f"GPU before wrapping it")

    @staticmethod
    def related(later: Optional[Transfer]) -> dict:
        return {} if later is None else {"related_node": later.node, "related_label": "the move"}

    @staticmethod
    def fix_for(wrap: Wrap, later: Optional[Transfer], model: Model) -> Optional[Fix]:
        """`DDP(m)` -> `DDP(m.to(device))`, with the later move's own call."""
        args = wrap.node.args
        if later is None or not args or args[0].keyword is not None or args[0].star:
            return None
        if not set(later.names_read) <= model.bound_at(wrap.node):
            return None  # the device is bound after the wrap
        inner, call = args[0].value, later.node
        if type(inner) not in (cst.Name, cst.Attribute, cst.Call):
            return None  # `DDP(a if c else b)`: the move would bind to one arm
        arguments = ", ".join(
            f"{a.keyword.value}={code(a.value)}" if a.keyword is not None else code(a.value)
            for a in call.args)
        move = f".{code(call.func.attr)}({arguments})"
        if "\n" in move:
            return None
        return Fix(f"move the module with `{move[1:]}` before wrapping it", Applicability.UNSAFE,
                   (Edit("replace", inner, f"{code(inner)}{move}"),))
