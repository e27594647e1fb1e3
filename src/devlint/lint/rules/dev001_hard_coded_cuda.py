from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import NO_DEVICE_CHOICE, Applicability, Edit, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import DeviceSpec
from devlint.lint.model.torch_api import CUDA_LITERAL
from devlint.lint.positions import spans_of
from devlint.core.lines import silences, split_lines
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import code, cuda_method_call_arguments, first_device, insert_device_line
from devlint.lint.syntax import dotted, string_value, walk

# `torch.cuda.is_available` named and not called (`if torch.cuda.is_available:`)
UNCALLED = re.compile(r"\bis_available\b(?![ \t]*\()")

# Positions where a CUDA device is named (set_device and device_ids are DEV013's business).
KINDS = frozenset({"torch.device", "to", "device=", ".cuda", ".cuda(device)", "legacy", "type",
                   "torch.set_default_device", "map_location="})


class HardCodedCuda(Rule):
    code = "DEV001"
    name = "hard-coded-cuda"
    fix_kind = Applicability.SAFE
    summary = "A CUDA device named by a literal with no CPU fallback."
    what = """
        Finds `torch.device('cuda')`, `.to('cuda')`, `.cuda()`, `device='cuda'`,
        `map_location='cuda'`, `torch.set_default_device('cuda')` and `device = 'cuda'` where
        nothing makes sure CUDA exists. One root cause, one finding: a file that never chooses a
        device with a CPU fallback hard-codes CUDA everywhere for the same reason, so it gets
        one finding, on the first literal a run reaches that no `# noqa` silences, which counts
        the others; its fix moves them all to one `device` (in a notebook, whose cells run one
        at a time, one finding per cell, but for a cell a machine without a GPU reaches only
        past an earlier cell's CUDA placement that stopped it there: that one counts it). A code base whose scripts never choose a device (a research
        project's `train_*.py`, each `.cuda()` everywhere, sharing its `networks` package) made
        that decision once: a run over several such files connected by their imports reports
        it once, at the first in path order, counting the others and naming the next (each
        file checked alone, as pre-commit, flake8 and the editor check it, keeps its own
        finding; `--fix` fixes them all). A function of another file whose run places
        something on CUDA without a GPU raises there (`SiameseNet()`, whose `__init__` calls
        `torch.from_numpy(gt).cuda()`): its caller stops at that call on such a machine, so the
        caller's later literals are that root cause's consequences, reported once, at the
        callee's literal. In a file that does choose one somewhere, each literal that bypasses
        the choice is a slip of its own and a finding of its own, unless a machine without a
        GPU reaches it only past a CUDA placement that raised there on every path (a method the
        loop calls after its unguarded `.cuda()`): then it is that placement's consequence,
        counted in its finding and fixed with it. A `"cuda"` default of a
        config class in another file (`device: str = "cuda"` in a dataclass) is reported there,
        once a script that builds the config places something with it. A device bound to a
        name (`GPU_DEVICE = torch.device("cuda")`) places nothing itself: where the file places
        something with it, it is reported only if one of those uses is reached without a GPU;
        a device the file never places with is reported where it is made, unless only code no run
        reaches reads it or its name is bound again before anything reads it (see [the
        model](../model.md)). A move is a move wherever it is
        written: `print(model(x.cuda()))`, `f"{loss.cuda()}"` and `x.cuda() == y` copy to the GPU
        before anything is printed or compared; only a device *named* in a message, a comparison
        or a key (`t.device != torch.device("cuda")`) places nothing. An availability
        check named but never called (`'cuda' if torch.cuda.is_available else 'cpu'`, `if
        torch.cuda.is_available:`) is a function object, always true: every machine takes the
        CUDA arm. The literals of that arm get one finding, at the check, whose fix calls it
        (an arm that places nothing, such as `torch.cuda.manual_seed(seed)`, fails nowhere
        and is no finding).
    """
    silent = """
        Wherever a machine without a GPU never gets: under `if torch.cuda.is_available():` (or a
        flag derived from it, such as `args.cuda`), under a device switch set by hand
        (`use_cuda = True` at the top of a script, `use_gpu=True` handed to a call: like a
        command-line flag's default, the user's to flip; but not an option no command line turns
        off, `store_true` with `default=True`: it guards nothing), behind a switch of a function that is off
        by default and that its caller does not turn on (`if use_class_weights:` of
        `def forward(self, x, use_class_weights=False)` run on its own), in a conditional expression with a
        CPU arm, in a name handed to a library call that falls back to the CPU itself
        (torchsummary's `summary(model, size, device="cuda")`), in an if/elif/else fallback
        chain, in an arm of a test of a setting the code fixed to another literal (`if
        self.gan_type == 'nsgan':` where `__init__` sets `self.gan_type = 'lsgan'` and nothing
        else assigns it; a module-level name bound once), in an arm of a test taken again after
        the CPU world's path through the same test's arm stopped (`if self.relation_layers_num
        != 0:` twice, the first arm's `.cuda()` the first stop; nothing it reads bound between
        them), in a function chosen on a GPU path and called
        past the branch (`cast = lambda x: x.cuda()` under `if to_gpu:`, a plain cast in the
        other arm), after `assert torch.cuda.is_available()` or an exit without
        CUDA, after a `torch.cuda` call that needs a GPU (`set_device`, `current_device`,
        `synchronize`; inside `with torch.cuda.device(2):`, or `torch.cuda.device(args.gpu_id)`
        of an option that defaults to an index) or a start of NVML, the driver's
        library (`pynvml.nvmlInit()`) or a `DistributedDataParallel(..., device_ids=[rank])` (it
        takes only a module
        on a GPU, so the `.cuda()` inside it is required, and so is a GPU for the class whose
        constructor wraps it), after importing a CUDA-only package (TensorRT, Triton, flash-attn, a compiled
        extension named for CUDA such as `knn_cuda`), inside
        `FakeTensorMode`. Also in a parameter's default value (the caller chooses; but where a call
        the run makes leaves the argument out, the default is the device it places on, and is
        reported), in a function-local device that nothing reads (it places nothing), in functions and
        classes CUDA-specific by purpose (`def cuda(self)`, `class CudaPrefetcher`, a class
        whose `__init__` or `__iter__` makes a `torch.cuda.Stream()` first, a `gpu_id`
        parameter, GPU markers such as `@gpu_test(...)`, `@RunIf(min_cuda_gpus=1)`,
        `@ray.remote(num_gpus=1)`), after `import setGPU` (it needs nvidia-smi), in tests (they
        pin devices on purpose; a `test_*.py` that defines no test is an evaluation script named
        "test", not a test module) and in the `if __name__ == "__main__":` block of a package's
        module (an `__init__.py` beside it: the module is imported, and that block is its
        author's self-test or demo, run by hand), and in files that
        start an NCCL process group (a `"nccl"` backend, or a command-line option whose default
        is `"nccl"`: the group raises without a GPU, so a run gets past it only with one) or
        compile CUDA kernels (`torch.utils.cpp_extension.load`
        of a `.cu` source, `load_inline(cuda_sources=...)`), and past importing a project
        module whose import does either, or imports a compiled CUDA extension (`import
        my_lib_cuda`, or `import Align1D` where the project's `setup.py` builds it from `.cu`
        sources, or `from nms import nms` where it builds `CUDAExtension('nms.details')` into a
        package `nms` that is no folder of the project, or such an import inside `try:` whose
        `except ImportError:` raises, as Pointnet2's `pointnet2_utils.py` does; a submodule
        named by `from package import module` counts) or a package that cannot be imported
        without a GPU (`flash_attn`),
        followed through the folders a script puts on `sys.path`: they
        need CUDA whatever the device says. Also in a
        Cog predictor (Replicate's `cog`) that the project's `cog.yaml` names under `predict:`
        and builds with `gpu: true`: the project deploys that file only where a GPU is. And in
        a module of the project that only GPU scripts import (project mode): each of its
        importers is a script whose `__main__` block (or top level) calls
        `torch.cuda.set_device(...)` before anything else, or a module that only such scripts
        import; one importer that runs without a GPU (a demo, a test, a notebook) keeps the
        findings.
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

    def check(self, model: Model) -> Iterator[RawFinding]:
        if model.nccl_required or model.cuda_kernels:
            # an NCCL process group, or kernels compiled with nvcc on the way (RWKV's
            # `load(name="wkv", sources=["wkv_op.cpp", "wkv_cuda.cu"])`), need CUDA anyway: a
            # CPU fallback could not run
            return
        sites = list(self.sites(model))
        if sites and UNCALLED.search(model.text):
            sites = yield from self.uncalled_checks(sites, model)
        # A script (not a notebook) that never chooses a device shares that cause with the
        # project's other such files it is connected to: a run over them reports it once
        # (`devlint.lint.root_causes`). A file whose run reaches a choice made elsewhere
        # (`self.device` of a base class) or places with a device it is handed bypasses that
        # choice: a slip of its own.
        cause = "" if model.fallback or model.given_device or model.unit_of else NO_DEVICE_CHOICE
        if len(sites) < 2:
            for spec in sites:
                yield self.finding(spec.node, self.message(spec), fix=self.fix_for(spec, model),
                                   root_cause=cause)
            return
        spans = spans_of(model.module, [spec.node for spec in sites])
        units: dict = {}  # a notebook's cells run one at a time: one root cause per cell
        unit_at: dict = {}  # id(a site's node) -> its unit
        for spec in sites:
            line = spans[spec.node].start.line if spec.node in spans else 0
            unit = model.unit_of(line) if model.unit_of else 0
            if model.own_fallback:
                # The file chooses the CPU somewhere: a function that bypasses that choice is a
                # slip of its own, once for all its literals.
                function = spec.where.function
                unit = (unit, id(function.node) if function is not None else None)
            crash = unit_at.get(id(spec.where.past)) if spec.where.past is not None else None
            if crash is not None:
                # reached without a GPU only past a CUDA placement that raised there (a method
                # the loop calls after its unguarded `.cuda()`, a notebook cell after the one
                # that moved the model): that placement's consequence
                unit = crash
            unit_at[id(spec.node)] = unit
            units.setdefault(unit, []).append(spec)
        for unit in units.values():
            found = self.whole_file(unit, model, spans)
            yield replace(found, root_cause=cause) if cause else found

    def uncalled_checks(self, sites: list, model: Model):
        """`if torch.cuda.is_available:` or `'cuda' if torch.cuda.is_available else 'cpu'`,
        the check never called: a function is always true, so every machine takes the CUDA
        arm. One finding at the check for the literals of its arm (its fix calls it); returns
        the sites no such check governs."""
        governed: dict = {}  # id(node of an arm a check always takes) -> the check
        for node in walk(model.module):
            kind = type(node)
            if kind not in (cst.If, cst.IfExp, cst.While):
                continue
            checks = _uncalled_in(node.test)
            if not checks:
                continue
            negated, check = checks[0]
            arm = node.orelse if negated else node.body
            for sub in walk(arm) if arm is not None else ():
                governed.setdefault(id(sub), check)
        rest, by_check = [], {}
        for spec in sites:
            check = governed.get(id(spec.node))
            if check is None:
                rest.append(spec)
            else:
                by_check.setdefault(id(check), (check, []))[1].append(spec)
        for check, specs in by_check.values():
            spelled = code(check)
            yield self.finding(
                check, f"`{spelled}` is never called: a function is always true, so this takes "
                f"the CUDA arm on every machine, also without a GPU (the CUDA device at line "
                f"{{related_line}}); call it: `{spelled}()`",
                related_node=specs[0].node, related_label="the CUDA device every machine gets",
                fix=Fix("call the check", Applicability.SAFE, (Edit("replace", check, f"{spelled}()"),)))
        return rest

    def sites(self, model: Model) -> Iterator[DeviceSpec]:
        reported: set[int] = set()
        # the crash every spec of a literal the CPU world reaches is past (`State.past`)
        pasts: dict = {}
        for spec in model.obs.devices:
            if spec.where.cpu:
                ident = id(spec.node)
                past = spec.where.past
                pasts[ident] = past if ident not in pasts or pasts[ident] is past else None
        # `GPU_DEVICE = torch.device("cuda")` places nothing itself: where the file places
        # something with it, those uses decide (all behind `if self.use_gpu:`, none a machine
        # without a GPU reaches); a device the file never places with stays its own finding
        uses: dict[int, list] = {}
        for spec in model.obs.devices:
            if spec.kind in KINDS and spec.kind != "torch.device":
                uses.setdefault(id(spec.node), []).append(spec)
        for spec in model.obs.devices:
            if spec.kind not in KINDS or not spec.where.cpu or id(spec.node) in reported:
                continue
            if spec.kind == "torch.device" and id(spec.node) in uses and not any(
                    use.where.cpu and not use.where.in_test and not use.where.self_test
                    for use in uses[id(spec.node)]):
                continue
            if spec.kind == "torch.device" and id(spec.node) not in uses and \
                    (model.only_dead_code_reads(spec.node) or model.bound_over_unread(spec.node) or
                     model.unread_local(spec.node)):
                # every use of it is in code no run reaches, or its name is bound again before
                # anything reads it, or it is a function's local that nothing reads: it places
                # nothing
                continue
            if spec.where.in_test or spec.where.self_test:
                continue  # a test pins its device on purpose; GPU markers decide where it runs
            if spec.kind != ".cuda(device)" and spec.device.cpu != "accel":
                continue
            if another_backend(spec):
                continue  # 'mps', 'xpu', 'npu', 'hpu', 'xla': another backend, chosen on purpose
            if spec.where.caught:
                continue  # tried in a `try` whose handler goes on the CPU way: no machine stops
            reported.add(id(spec.node))
            past = pasts.get(id(spec.node))
            yield spec if past is spec.where.past else replace(spec, where=replace(spec.where, past=past))

    def whole_file(self, sites: list[DeviceSpec], model: Model, spans: dict) -> RawFinding:
        """One root cause, one finding: a file that never chooses a device with a fallback
        hard-codes CUDA everywhere for the same reason, so it gets one finding, on the first
        literal a run reaches, whose fix moves every literal to one `device` chosen with a
        fallback."""
        lines = split_lines(model.text) if "noqa" in model.text.lower() else []

        def silenced(spec: DeviceSpec) -> bool:  # its own `# noqa` keeps it out of the group
            line = spans[spec.node].start.line
            return 0 < line <= len(lines) and silences(lines[line - 1], self.code)

        # In the order a run reaches them (the model's): the first is where a machine without
        # a GPU fails first, also where a `__main__` block reaches a method's guarded `.cuda()`
        # only after its own literals.
        here = [spec for spec in sites if spec.node in spans and not silenced(spec)]
        starts: set = set()
        unique = []
        for spec in here:  # `torch.device("cuda")` and its literal start at one place
            start = spans[spec.node].start
            if (start.line, start.column) not in starts:
                starts.add((start.line, start.column))
                unique.append(spec)
        if len(unique) < 2:
            first = unique[0] if unique else sites[0]  # (a silenced one stays silenced)
            return self.finding(first.node, self.message(first), fix=self.fix_for(first, model))
        first, rest = unique[0], unique[1:]
        more = len(rest)
        if model.own_fallback:
            function = first.where.function
            where = f"`{function.name}`" if function is not None else "the module level"
            if any(spec.where.function is not function for spec in rest):
                where = (f"a machine without a GPU stops here; {where}, and the code a run "
                         "reaches only past this line,")
        elif model.unit_of:
            where = "the notebook never chooses a device with a CPU fallback, and this cell"
            if any(spec.where.past is not None for spec in rest):
                where = ("a machine without a GPU stops here; this cell, and the cells a run "
                         "reaches only past this line,")
        else:
            where = "the file never chooses a device with a CPU fallback and"
        verb = "hard-code" if where.endswith(",") else "hard-codes"
        message = (f"{self.message(first)}; {where} {verb} CUDA in {more} more "
                   f"place{'s' if more > 1 else ''} (the next at line {{related_line}})")
        edits: list = []
        for spec in unique:
            fix = self.fix_for(spec, model)
            for edit in fix.edits if fix is not None else ():
                if edit not in edits:
                    edits.append(edit)
        fix = None
        if edits:
            fix = Fix("use one `device`, chosen with a CPU fallback, for every CUDA literal",
                      Applicability.SAFE, tuple(edits))
        return self.finding(first.node, message, related_node=rest[0].node,
                            related_label="another hard-coded CUDA device", fix=fix)

    @staticmethod
    def message(spec: DeviceSpec) -> str:
        if spec.kind == ".cuda(device)":
            return ("`.cuda(device)` fails when `device` is the CPU, which it is on a machine "
                    "without a GPU; use `.to(device)`")
        if spec.kind in (".cuda", ".cuda(device)"):
            return ("`.cuda()` hard-codes the CUDA device with no CPU fallback; use `.to(device)` "
                    "with `device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')`")
        if spec.kind in ("legacy", "type"):
            return ("a `torch.cuda` tensor type puts the data on the GPU with no CPU fallback; "
                    "make the tensor on `device` instead")
        literal = string_value(spec.node)
        # `cudaid = "cuda:" + str(args.dev)`: the expression names the CUDA device it holds
        value = f"'{literal}'" if literal is not None else f"`{code(spec.node)}` (always CUDA)"
        return (f"hard-coded device {value} with no CPU fallback; use "
                "`torch.device('cuda' if torch.cuda.is_available() else 'cpu')`")

    def fix_for(self, spec: DeviceSpec, model: Model) -> Optional[Fix]:
        if spec.in_conditional or spec.kind in ("legacy", "type", ".cuda(device)"):
            return None
        bound = model.bound_at(spec.node)
        if "torch" not in bound:
            return None
        if spec.kind in ("torch.device", "torch.set_default_device") and string_value(spec.node):
            quoted = code(spec.node)
            cpu = f"{quoted[-1]}cpu{quoted[-1]}"
            fallback = f"{quoted} if torch.cuda.is_available() else {cpu}"
            return Fix("add a CPU fallback", Applicability.SAFE,
                       (Edit("replace", spec.node, fallback),))
        edits = []
        device = first_device(spec.devices, bound)
        if device is None:
            line = insert_device_line(model)
            if line is None:
                return None
            edits.append(line)
            device = "device"
        if spec.kind == ".cuda":
            keywords = cuda_method_call_arguments(spec.call) if spec.call is not None else None
            if keywords is None:
                return None  # `.cuda(1)`: the index is a choice devlint cannot keep for you
            inner = f"{device}, {keywords}" if keywords else device
            edits.append(Edit("replace", spec.node, f"to({inner})", end_node=spec.call))
        elif string_value(spec.node) is not None:
            edits.append(Edit("replace", spec.node, device))
        else:
            return None
        return Fix(f"use `{device}`, chosen with a CPU fallback", Applicability.SAFE, tuple(edits))


def _uncalled_in(test) -> list:
    """The CUDA availability checks a condition names without calling them, each with whether
    a `not` turns it: (negated, the check's node)."""
    called = {id(sub.func) for sub in walk(test) if type(sub) is cst.Call}
    found = []
    stack = [(test, False)]
    while stack:
        node, negated = stack.pop()
        if type(node) is cst.Attribute and id(node) not in called and \
                (dotted(node) or "").endswith("cuda.is_available"):
            found.append((negated, node))
        elif type(node) is cst.UnaryOperation and type(node.operator) is cst.Not:
            stack.append((node.expression, not negated))
        elif type(node) is cst.BooleanOperation:
            stack += [(node.left, negated), (node.right, negated)]
    return found


def another_backend(spec: DeviceSpec) -> bool:
    """A literal naming a backend other than CUDA (`"mps"`, `"xpu"`): chosen on purpose, and
    no rule about CUDA's absence speaks of it."""
    text = string_value(spec.node)
    return text is not None and not CUDA_LITERAL.match(text)
