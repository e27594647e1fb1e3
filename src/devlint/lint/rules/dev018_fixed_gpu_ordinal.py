from __future__ import annotations

import re
from typing import Any, Iterator, Optional

import libcst as cst

from devlint.core.findings import RawFinding
from devlint.lint.model import Model
from devlint.lint.model.conventions import TEST_NAME
from devlint.lint.model.observations import DeviceSpec
from devlint.lint.model.torch_api import FIXED_CUDA_INDEX
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code
from devlint.lint.syntax import dotted, string_value, walk

# Words that show the code knows how many GPUs there are, or chooses which ones it sees.
COUNT_WORDS = ("device_count", "CUDA_VISIBLE_DEVICES")


class FixedGpuOrdinal(Rule):
    code = "DEV018"
    name = "fixed-gpu-ordinal"
    fix_kind = None
    summary = "A second (or later) GPU named by number behind a check that only asks whether a GPU exists."
    what = """
        Finds a fixed GPU number other than 0 (`"cuda:1"`, `torch.device("cuda", 1)`,
        `.cuda(1)`, `.to(2)`, `torch.cuda.set_device(1)`) chosen behind
        `torch.cuda.is_available()` (a conditional expression with a CPU arm, or an
        `if torch.cuda.is_available():` branch; also by a name bound only to its answer,
        `has_gpu = torch.cuda.is_available()`), in a file that never asks how many GPUs
        there are. `"cuda:1" if torch.cuda.is_available() else "cpu"` is a device choice by its
        form, so it is found wherever it goes: an argparse default, a config entry or a
        dataclass field that another file reads; so is a list of them,
        `["cuda:0", "cuda:1"] if torch.cuda.is_available() else ["cpu", "cpu"]`.
    """
    silent = """
        For `cuda`, `cuda:0` and the current device; when the file asks
        `torch.cuda.device_count()` (but for a count that only decides whether to wrap the model
        in `nn.DataParallel`, which picks no GPU number) or sets `CUDA_VISIBLE_DEVICES`; when one piece of code names
        several GPUs on purpose (model parallelism), unless a later GPU is chosen by the form
        `"cuda:1" if torch.cuda.is_available() else "cpu"` (or an `if`/`else` of that test whose
        other arm is the CPU); in distributed code (DEV013's business);
        for a GPU number that is a variable (`f"cuda:{args.gpu}"`); in tests; and where no
        availability check is around the number (DEV001 reports a device with no fallback).
    """
    why = """
        `torch.cuda.is_available()` says that there is at least one GPU, not that there are
        two. On a laptop, a CI runner or a cloud instance with one GPU, `cuda:1` fails with
        "CUDA error: invalid device ordinal" at the first tensor moved there, while the check
        around it promised a fallback.
    """
    bad = """
        import torch

        device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1).to(device)
    """
    fix = """
        Use `cuda` (the current GPU) and choose the GPU from outside with
        `CUDA_VISIBLE_DEVICES`, or guard the number:
        `"cuda:1" if torch.cuda.device_count() > 1 else "cuda"`. No automatic fix: which GPU
        the run should use is the user's choice.
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        if model.distributed or model.visible_devices:
            return
        specs = [s for s in model.obs.devices if s.fixed_index and s.device.index is not None]
        # (a walk of the whole tree: only where the text names a GPU by number at all)
        choices = [] if model.interpreter.test_depth or not ORDINAL_TEXT.search(model.text) else \
            list(availability_choices(model.module))
        numbers = {s.device.index for s in specs} | {index for _, index in choices}
        if not numbers - {0}:
            return  # none, or GPU 0
        if self.counts_devices(model):
            return
        if len(numbers) > 1:
            # several GPUs named on purpose (model or pipeline parallelism): silent, except a
            # later GPU chosen by the form `"cuda:1" if torch.cuda.is_available() else "cpu"`
            # (or its `if`/`else` spelling), whose fallback covers a machine with no GPU and
            # not one with a single GPU
            named = [(spec.node, spec.device.index) for spec in specs if spec.device.index and
                     self.behind_availability(spec) and _in_fallback_branch(model, spec.node)]
            choices = [(node, index) for node, index in choices if index]
        else:
            named = [(spec.node, spec.device.index) for spec in specs if self.behind_availability(spec)
                     and (spec.in_conditional or _under_availability_test(model, spec.node))]
        reported: set[int] = set()
        for node, index in named + choices:
            if id(node) in reported:
                continue
            reported.add(id(node))
            yield self.finding(
                node,
                f"GPU {index} is named by number (`{code(node)}`), but the "
                f"check around it only asks whether a GPU exists: with fewer than "
                f"{index + 1} GPUs it fails with \"invalid device ordinal\"; use "
                f"`cuda` or guard it with `torch.cuda.device_count()`")

    @staticmethod
    def behind_availability(spec: DeviceSpec) -> bool:
        where = spec.where
        if not where.accel or where.in_test or where.rank_guarded or not spec.device.index:
            return False
        return spec.in_conditional or not where.cpu

    @staticmethod
    def counts_devices(model: Model) -> bool:
        wrapping = {id(sub) for node in walk(model.module) if _wraps_for_several_gpus(node)
                    for sub in walk(node.test)}
        for node in walk(model.module):
            if type(node) is cst.Name and node.value in COUNT_WORDS and id(node) not in wrapping:
                return True
            if type(node) is cst.SimpleString and "CUDA_VISIBLE_DEVICES" in (string_value(node) or ""):
                return True
        return False


ORDINAL_TEXT = re.compile(r"cuda:\d")
PARALLEL_WRAPPERS = frozenset({"DataParallel", "DistributedDataParallel"})


def _wraps_for_several_gpus(node) -> bool:
    """`if torch.cuda.device_count() > 1: model = nn.DataParallel(model)` with no `else`: the
    count decides whether to spread the model, never which GPU a number names, so it guards no
    `cuda:1` (on a machine with one GPU the model stays whole, on the GPU that is not there)."""
    if type(node) is not cst.If or node.orelse is not None or type(node.body) is not cst.IndentedBlock:
        return False
    for statement in node.body.body:
        if type(statement) is not cst.SimpleStatementLine:
            return False
        for small in statement.body:
            value = small.value if type(small) in (cst.Assign, cst.Expr) else None
            if type(value) is not cst.Call or (dotted(value.func) or "").rsplit(".", 1)[-1] not in PARALLEL_WRAPPERS:
                return False
    return True


def availability_choices(module: cst.Module) -> Iterator[tuple[cst.SimpleString, int]]:
    """`"cuda:1" if torch.cuda.is_available() else "cpu"`, outside tests: a device chosen by its
    form, wherever the choice goes (an argparse default, a config field another file reads)."""
    tests = {id(sub) for node in walk(module)
             if type(node) in (cst.FunctionDef, cst.ClassDef) and TEST_NAME.search(node.name.value)
             for sub in walk(node)}
    flags = availability_flags(module)
    for node in walk(module):
        if type(node) is not cst.IfExp or id(node) in tests:
            continue
        arms = _availability_arms(node.test, node.body, node.orelse, flags)
        if arms is None:
            continue
        gpu, cpu = arms
        if type(gpu) in (cst.List, cst.Tuple) and _all_cpu(cpu):
            # `["cuda:0", "cuda:1"] if torch.cuda.is_available() else ["cpu", "cpu"]`: a GPU
            # per worker, the later ones by number (reported once, at the first of them)
            for element in gpu.elements:
                number = FIXED_CUDA_INDEX.match(string_value(element.value) or "")
                if number and int(number.group(1)) > 0:
                    yield element.value, int(number.group(1))
                    break
            continue
        number = FIXED_CUDA_INDEX.match(string_value(gpu) or "")
        if number and string_value(cpu) == "cpu":
            yield gpu, int(number.group(1))


def _all_cpu(arm: Any) -> bool:
    """`"cpu"`, or a list or tuple of `"cpu"` strings."""
    if type(arm) in (cst.List, cst.Tuple):
        return bool(arm.elements) and all(string_value(e.value) == "cpu" for e in arm.elements)
    return string_value(arm) == "cpu"


# A test that asks whether there is a GPU: `torch.cuda.is_available()`, or a flag of it.
_AVAILABILITY_TEST = re.compile(r"is_available|(^|[^\w])(use_|has_|on_|is_)?(cuda|gpu)s?([^\w]|$)")


def _under_availability_test(model: Model, node) -> bool:
    """`node` sits in a branch of an `if` that asks whether a GPU exists: the CPU world stopped
    at that check, not at a condition devlint cannot evaluate (`if "device" in config: ...
    else: torch.device("cuda:1")`) or at a default never used. The branches are read once per
    file."""
    inside = model.shared.get("availability_branches")
    if inside is None:
        inside = model.shared["availability_branches"] = frozenset(
            id(sub) for branch in walk(model.module)
            if type(branch) is cst.If and _AVAILABILITY_TEST.search(code(branch.test))
            for part in (branch.body, branch.orelse) if part is not None for sub in walk(part))
    return id(node) in inside


def _in_fallback_branch(model: Model, node) -> bool:
    """`node` sits in the GPU arm of `if torch.cuda.is_available(): ... else: ...` whose other
    arm names the CPU: a device choice with a fallback, spelled as statements."""
    inside = model.shared.get("fallback_branches")
    if inside is None:
        found = set()
        flags = availability_flags(model.module)
        for branch in walk(model.module):
            if type(branch) is not cst.If or type(branch.orelse) is not cst.Else:
                continue
            arms = _availability_arms(branch.test, branch.body, branch.orelse.body, flags)
            if arms is None:
                continue
            gpu, cpu = arms
            if any(type(sub) is cst.SimpleString and string_value(sub) == "cpu" for sub in walk(cpu)):
                found.update(id(sub) for sub in walk(gpu))
        inside = model.shared["fallback_branches"] = frozenset(found)
    return id(node) in inside


def _availability_arms(test: Any, body: Any, orelse: Any, flags: frozenset) -> Optional[tuple]:
    """(the GPU arm, the CPU arm) of a choice by `torch.cuda.is_available()` (or its `not`),
    or by a name that holds its answer (`has_gpu = torch.cuda.is_available()`, one of
    `flags`), as a conditional expression or an `if`/`else`; None for any other test."""
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        test, body, orelse = test.expression, orelse, body
    if type(test) is cst.Name and test.value in flags:
        return body, orelse
    if type(test) is not cst.Call or not _asks_availability(test):
        return None
    return body, orelse


def _asks_availability(node: Any) -> bool:
    return type(node) is cst.Call and (dotted(node.func) or "").endswith("cuda.is_available")


def availability_flags(module: cst.Module) -> frozenset:
    """The names the file binds only to `torch.cuda.is_available()` (`has_gpu = ...`)."""
    bound: dict = {}
    for node in walk(module):
        if type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            name = node.targets[0].target.value
            bound[name] = bound.get(name, True) and _asks_availability(node.value)
        elif type(node) in (cst.AugAssign, cst.AnnAssign) and type(node.target) is cst.Name:
            bound[node.target.value] = False
    return frozenset(name for name, only in bound.items() if only)
