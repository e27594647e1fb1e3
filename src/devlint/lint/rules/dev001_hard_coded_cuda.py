from __future__ import annotations

from typing import Iterator

from typing import Optional

from devlint.lint.facts import CudaLiteral, Facts
from devlint.lint.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import (
    code, cuda_method_call_arguments, insert_device_line, module_device,
)
from devlint.lint.syntax import string_value


class HardCodedCuda(Rule):
    code = "DEV001"
    name = "hard-coded-cuda"
    fix_kind = Applicability.SAFE
    summary = "A CUDA device named by a literal with no CPU fallback."
    what = """
        Finds `torch.device('cuda')`, `.to('cuda')`, `.cuda()`, `device='cuda'`,
        `map_location='cuda'`, `torch.set_default_device('cuda')` and `device = 'cuda'` where
        nothing makes sure CUDA exists.
    """
    silent = """
        Under `if torch.cuda.is_available():` (or a flag derived from it, such as `args.cuda`), in a
        conditional expression with a CPU arm, in an if/elif/else fallback chain, after `assert
        torch.cuda.is_available()`, in a parameter's default value, in tests skipped without CUDA,
        and in files that start an NCCL process group (they need CUDA whatever the device says).
    """
    why = """
        The loop's mathematics are the same on every device; only where the tensors live
        changes. A literal `'cuda'` pins them to a GPU, so the same script dies with
        "Torch not compiled with CUDA enabled" or "No CUDA GPUs are available" on a laptop, a
        CPU-only CI runner or a node whose GPU is taken, instead of running slower on the CPU.
    """
    bad = """
        import torch

        device = torch.device("cuda")
        model = torch.nn.Linear(4, 1).to(device)
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
    """
    fix = """
        Choose the device once, with a fallback:
        `device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')`, and move with
        `.to(device)` everywhere else.
    """

    def check(self, facts: Facts) -> Iterator[RawFinding]:
        if facts.uses_nccl:
            return  # an NCCL process group needs CUDA anyway: a CPU fallback could not run
        for literal in facts.cuda_literals:
            if literal.guarded:
                continue
            if literal.kind == ".cuda":
                message = (
                    "`.cuda()` hard-codes the CUDA device with no CPU fallback; use `.to(device)` "
                    "with `device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')`"
                )
            else:
                value = string_value(literal.node)
                message = (
                    f"hard-coded device '{value}' with no CPU fallback; use "
                    "`torch.device('cuda' if torch.cuda.is_available() else 'cpu')`"
                )
            yield self.finding(literal.node, message, fix=self.fix_for(literal, facts))

    def fix_for(self, literal: CudaLiteral, facts: Facts) -> Optional[Fix]:
        if not facts.torch_imported or literal.in_conditional:
            return None
        if literal.kind in ("torch.device", "torch.set_default_device", "assign"):
            quoted = code(literal.node)
            cpu = f"{quoted[-1]}cpu{quoted[-1]}"
            fallback = f"{quoted} if torch.cuda.is_available() else {cpu}"
            return Fix("add a CPU fallback", Applicability.SAFE,
                       (Edit("replace", literal.node, fallback),))
        edits = []
        device = module_device(facts, literal.scope)
        if device is None:
            line = insert_device_line(facts)
            if line is None:
                return None
            edits.append(line)
            device = "device"
        if literal.kind == ".cuda":
            assert literal.call is not None
            keywords = cuda_method_call_arguments(literal.call)
            if keywords is None:
                return None  # `.cuda(1)`: the index is a choice devlint cannot keep for you
            inner = f"{device}, {keywords}" if keywords else device
            edits.append(Edit("replace", literal.node, f"to({inner})", end_node=literal.call))
        else:
            edits.append(Edit("replace", literal.node, device))
        return Fix(f"use `{device}`, chosen with a CPU fallback", Applicability.SAFE, tuple(edits))
