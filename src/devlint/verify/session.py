"""One `devlint verify`: check the input, fix a copy if asked, run every device, compare, and
say honestly what was checked."""
from __future__ import annotations

import ast
import difflib
import importlib.machinery
import importlib.util
import math
import os
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Optional

from devlint import hints
from devlint.verify import device_lines
from devlint.verify.compare import DEFAULT, FAILED, STRICT, Comparison, compare_losses
from devlint.verify.errors import (
    NO_CUDA, OTHER, Explanation, classify, explain, is_simulator_gap,
)
from devlint.verify.gpu_only import DEVICE_FLAG, CudaChoice, cuda_choice
from devlint.verify.probe import gpu_count, gpu_present
from devlint.verify.runner import DeviceRun, Target, VerifyOptions, launcher_for, run_all
from devlint.verify.spec import CPU, CUDA, CUDA_SIM

EXIT_NOT_CHECKED = 3  # every run passed, but some accelerator run placed nothing on it
EXIT_PARTIAL = 4  # every run passed, but an accelerator run never ran some device lines
GPU_ONLY_NOTE = "no CPU baseline: this script needs a GPU (see above)"
NO_FALLBACK = "DEV001"  # a hard-coded cuda without a CPU fallback
SEED_LIMIT = 2 ** 32  # numpy.random.seed and PYTHONHASHSEED take 0 .. 2**32 - 1


class VerifyUsageError(Exception):
    """Bad input from the user: exit 2 with this one line."""


@dataclass
class DeviceSummary:
    run: DeviceRun
    comparison: Optional[Comparison] = None  # None for the baseline
    explanation: Optional[Explanation] = None
    hint: str = ""  # how to make an unchecked accelerator run check something

    @property
    def ok(self) -> bool:
        if not self.run.ran:
            return False
        return self.comparison is None or self.comparison.ok

    @property
    def compile_unsupported(self) -> bool:
        """torch.compile itself failed on the simulated device: not the script's failure."""
        error = self.run.error or {}
        return (self.run.device == CUDA_SIM and bool(error.get("compiler"))
                and (self.explanation is None or self.explanation.kind == OTHER))

    @property
    def simulator_gap(self) -> bool:
        """The simulated GPU met a torch API it cannot run (not the script's failure): the run
        checked placement up to that line and no further."""
        return (self.run.device == CUDA_SIM and self.run.status == "error"
                and is_simulator_gap(self.run.error or {})
                and (self.explanation is None or not self.explanation.findings))

    @property
    def placement(self) -> str:
        """"checked" when the run held tensors on the accelerator, "not checked" when it ran
        without, "unsupported" for a torch.compile or another torch API the simulator cannot
        run, "" for the cpu baseline and for a run that failed before it could tell."""
        if self.run.device == CPU:
            return ""
        if self.compile_unsupported or self.simulator_gap:
            return "unsupported"
        if self.run.accelerator.get("used"):
            return "checked"
        return "not checked" if self.run.ran else ""

    @property
    def foreign_gpus(self) -> list[tuple[int, Optional[dict]]]:
        """Under torchrun, the simulated GPUs of other ranks this rank put tensors on, with
        where it first did: (index, site)."""
        run = self.run
        if run.local_rank is None or run.device != CUDA_SIM:
            return []
        used = run.accelerator.get("first_use") or {}
        return [(int(index), site) for index, site in used.items()
                if int(index) != run.local_rank]

    @property
    def measured_steps(self) -> list[dict]:
        """Steps after the first: the first carries start-up (imports, data, warm-up), so a
        run of one step has no step time to show."""
        return self.run.steps[1:]

    @property
    def median_step_s(self) -> Optional[float]:
        times = [s["time_s"] for s in self.measured_steps]
        return statistics.median(times) if times else None

    @property
    def transfer_share(self) -> Optional[float]:
        steps = self.measured_steps
        total = sum(s["time_s"] for s in steps)
        if not steps or total <= 0:
            return None
        moved = sum(s["batch_time_s"] + s["model_time_s"] for s in steps)
        return min(moved / total, 1.0)

    def median_part(self, key: str) -> float:
        values = [s[key] for s in self.measured_steps]
        return statistics.median(values) if values else 0.0

    @property
    def final_loss(self) -> Optional[float]:
        losses = [v for v in self.run.losses if v is not None]
        return losses[-1] if losses else None


@dataclass
class Verification:
    options: VerifyOptions
    devices: list[DeviceSummary] = field(default_factory=list)
    fixes_applied: list[dict] = field(default_factory=list)
    fix_error: str = ""
    target: Optional[Target] = None
    notebook: object = None  # workspace.notebook.Program: lines -> cells
    texts: dict = field(default_factory=dict)  # path -> the text that ran in its place
    device_lines: dict = field(default_factory=dict)  # line -> make | move | meet (the script's)
    loop_ends: dict = field(default_factory=dict)  # a loop's line -> its last line
    gpu_only: Optional[CudaChoice] = None  # the script needs a GPU: the cpu rows judge nothing
    interrupted: str = ""  # what stopped verify itself ("Ctrl-C", "SIGTERM"): a partial report

    @property
    def ok(self) -> bool:
        """Every device ran and matched the baseline (placement aside); a script that needs a
        GPU by design is judged on its accelerator rows alone."""
        judged = [d for d in self.devices if not (self.gpu_only and d.run.device == CPU)]
        return bool(judged) and all(d.ok or d.placement == "unsupported" for d in judged)

    @property
    def unchecked(self) -> list[DeviceSummary]:
        return [d for d in self.devices if d.placement in ("not checked", "unsupported")]

    @property
    def unrun_device_lines(self) -> dict[str, list[int]]:
        """Per accelerator run that ran: the script's device lines it never ran (not checked)."""
        out = {}
        for summary in self.devices:
            run = summary.run
            if run.device == CPU or not run.ran or not run.coverage:
                continue
            lines = sorted(set(run.coverage.get("never_run", [])) & set(self.device_lines))
            if lines:
                out[run.device if run.rank is None else f"{run.device} rank {run.rank}"] = lines
        return out

    @property
    def exit_code(self) -> int:
        if not self.ok:
            return 1
        if self.unchecked:
            return EXIT_NOT_CHECKED
        return EXIT_PARTIAL if self.unrun_device_lines else 0

    def summary(self, device: str, rank: Optional[int] = None) -> Optional[DeviceSummary]:
        return next((d for d in self.devices if d.run.device == device and d.run.rank == rank),
                    None)

    def common_failure(self) -> Optional[dict]:
        """The error, when every device failed the same way at the same line (the wording may
        differ: a dtype is Half on one device and BFloat16 on another)."""
        errors = [d.run.error for d in self.devices if d.run.status == "error" and d.run.error
                  and not d.simulator_gap]
        if len({d.run.device for d in self.devices}) < 2 or len(errors) != len(self.devices):
            return None  # one device (its ranks aside) tells nothing about the others
        keys = {(e.get("type"), classify(e.get("type", ""), e.get("message", "")),
                 (e.get("frame") or {}).get("path"), (e.get("frame") or {}).get("line"))
                for e in errors}
        return errors[0] if len(keys) == 1 else None


def default_devices() -> list[str]:
    """cpu, plus the real GPU when there is one, else the simulated one."""
    return [CPU, CUDA if cuda_present() else CUDA_SIM]


def cuda_present() -> bool:
    return gpu_present()


# -- checking the input -------------------------------------------------------------------------
def check_usage(options: VerifyOptions) -> None:
    if importlib.util.find_spec("torch") is None:
        raise VerifyUsageError(
            f"devlint verify runs your script under torch, which is not installed: {hints.TORCH}"
        )
    if bool(options.module) == bool(options.script):
        raise VerifyUsageError("give a SCRIPT or -m MODULE (one of them)")
    if options.script is not None and not options.script.is_file():
        raise VerifyUsageError(f"{options.script}: no such file")
    if options.max_steps < 1:
        raise VerifyUsageError("--max-steps must be at least 1")
    for name in ("max_batches", "max_epochs"):
        if getattr(options, name) < 0:
            raise VerifyUsageError(f"--{name.replace('_', '-')} must be 0 (no cap) or more")
    if not (math.isfinite(options.timeout) and options.timeout > 0):
        raise VerifyUsageError(f"--timeout must be a positive number of seconds, not "
                               f"{options.timeout!r}")
    if not 0 <= options.seed < SEED_LIMIT:
        raise VerifyUsageError(f"--seed must be between 0 and {SEED_LIMIT - 1}, not "
                               f"{options.seed}")
    if CUDA in options.devices and not cuda_present():
        raise VerifyUsageError("--devices cuda: no CUDA GPU on this machine (torch cannot see "
                               "one); cuda-sim simulates one")
    check_torchrun_usage(options)
    keep = options.keep_outputs
    if keep is not None and keep.exists() and (not keep.is_dir() or any(keep.iterdir())):
        raise VerifyUsageError(f"--keep-outputs {keep}: choose a new or empty directory")


MAX_NPROC = 64  # ranks per node; each is a process with torch in it


def check_torchrun_usage(options: VerifyOptions) -> None:
    if not 0 <= options.nproc <= MAX_NPROC:
        raise VerifyUsageError(f"--nproc must be between 1 and {MAX_NPROC}, not {options.nproc}")
    if options.launcher_args and not options.nproc:
        flag = options.launcher_args[0].split("=")[0]
        raise VerifyUsageError(f"{flag} is an option of torchrun: give --nproc N as well")
    nnodes = next((a.split("=", 1)[1] for a in options.launcher_args
                   if a.startswith("--nnodes=")), "1")
    if not re.fullmatch(r"[1-9]\d*(:[1-9]\d*)?", nnodes):
        raise VerifyUsageError(f"--nnodes must be N or MIN:MAX (positive numbers), not {nnodes!r}")
    if options.nproc and CUDA in options.devices and gpu_count() < options.nproc:
        raise VerifyUsageError(
            f"--devices cuda --nproc {options.nproc}: this machine has {gpu_count()} GPU(s) and "
            f"every rank needs its own; use --nproc {max(gpu_count(), 1)}, or cuda-sim, which "
            f"simulates a GPU per rank")


def resolve_target(options: VerifyOptions, workdir: Path) -> tuple[Target, object]:
    """What runs and how `python` would name it; a notebook's cells become one program,
    written to `workdir` (with the Program that maps its lines back to cells)."""
    cwd = Path.cwd()
    if options.module:
        path, root = locate_module(options.module, cwd)
        return Target(path=path, argv0=str(path), cwd=cwd, user_root=root,
                      module=options.module), None
    script = options.script
    path = Path(os.path.abspath(script))
    target = Target(path=path, argv0=str(script), cwd=cwd, user_root=path.parent)
    if path.suffix != ".ipynb":
        return target, None
    from devlint.workspace.notebook import NotebookError, load, program

    try:
        prog = program(load(path.read_bytes()))
    except (NotebookError, OSError) as exc:
        raise VerifyUsageError(f"{script}: {exc}") from None
    if not prog.text.strip():
        raise VerifyUsageError(f"{script}: no code cells to run")
    source = workdir / "cells.py"
    source.write_text(prog.text, encoding="utf-8")
    target.notebook, target.source_path = True, source
    return target, prog


def locate_module(name: str, cwd: Path) -> tuple[Path, Path]:
    """The file `python -m NAME` runs from `cwd`, found without importing (and so running)
    its parent packages; and the directory the top-level package lives in."""
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts):
        raise VerifyUsageError(f"-m {name}: not a module name")
    finder = importlib.machinery.PathFinder
    spec = finder.find_spec(parts[0], [str(cwd), *sys.path[1:]])
    root = cwd
    if spec is not None:
        top = next(iter(spec.submodule_search_locations or []), spec.origin or "")
        root = Path(top).parent
    for depth in range(2, len(parts) + 1):
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        spec = finder.find_spec(".".join(parts[:depth]), locations) if locations else None
    if spec is not None and spec.submodule_search_locations:  # a package runs its __main__
        spec = finder.find_spec(f"{name}.__main__", list(spec.submodule_search_locations))
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        raise VerifyUsageError(f"-m {name}: no such module (looked from {cwd})")
    return Path(spec.origin), root


# -- verifying ----------------------------------------------------------------------------------
def verify(options: VerifyOptions, progress: Callable[[str], None]) -> Verification:
    if not options.devices:
        options.devices = default_devices()
    check_usage(options)
    result = Verification(options)
    with tempfile.TemporaryDirectory(prefix="devlint-fixed-") as tmp:
        target, result.notebook = resolve_target(options, Path(tmp))
        result.target = target
        with launcher_for(options) as launcher:  # torch imports there while the copy is fixed
            try:
                _run(options, target, result, Path(tmp), progress, launcher)
            except BaseException as exc:  # Ctrl-C, SIGTERM: what each run did so far
                runs = getattr(exc, "partial_runs", None)
                if runs:
                    result.devices = summarize(runs, options.strict, result.texts)
                    exc.verification = result
                raise
    for summary in result.devices:
        if summary.placement == "not checked":
            summary.hint = unchecked_hint(target, options, result.texts.get(str(target.path)))
        if summary.explanation is not None and summary.run.device == CPU:
            summary.explanation.note = user_chose_cuda(summary.explanation, options)
    judge_gpu_only(result, target)
    return result


def judge_gpu_only(result: Verification, target: Target) -> None:
    """The cpu run failed for the lack of a GPU at a line that chose CUDA by design (a named
    `"cuda"` default, an option's default, set_device, NCCL; DEV001 may call it a missing
    fallback, no other rule a bug; the user's arguments did not ask for cuda): there is no
    CPU baseline, and the accelerator rows are judged alone."""
    cpus = [s for s in result.devices if s.run.device == CPU]
    failed = [s for s in cpus if s.run.status == "error" and s.run.error]
    if not failed or any(s.run.ran for s in cpus) or any(
            s.explanation is not None and (s.explanation.note or any(
                f.code != NO_FALLBACK for f in s.explanation.findings))
            for s in failed) or len(cpus) == len(result.devices):
        return
    source = result.texts.get(str(target.path))
    if source is None:
        try:
            source = target.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
    choice = next((c for c in (cuda_choice(s.run.error, str(target.path), source)
                               for s in failed) if c is not None), None)
    if choice is None:
        return
    result.gpu_only = choice
    for summary in result.devices:
        summary.comparison = None  # nothing to compare with: judged by its own run
    for summary in failed:
        summary.explanation = summary.explanation or explain(summary.run.error)
        summary.explanation.note = GPU_ONLY_NOTE


def _run(options: VerifyOptions, target: Target, result: Verification, tmp: Path,
         progress: Callable[[str], None], launcher) -> None:
    texts = result.texts  # what ran in place of a file: a notebook's cells, a fixed copy
    if result.notebook is not None:
        texts[str(target.path)] = target.source_path.read_text(encoding="utf-8")
    if options.fix:
        texts[str(target.path)] = fixed_copy(target, tmp, result)
        if result.fixes_applied:
            progress(f"applied {len(result.fixes_applied)} fix(es) to a copy of "
                     f"{options.target_name}")
    runs = run_all(options, target, progress, launcher)
    result.devices = summarize(runs, options.strict, texts)
    ran = texts.get(str(target.path))
    if ran is None:
        ran = target.path.read_bytes().decode("utf-8", "replace")
    result.device_lines, result.loop_ends = device_lines.analyse(ran)
    if result.fixes_applied:
        original = (result.notebook.text if result.notebook is not None
                    else target.path.read_bytes().decode("utf-8", "replace"))
        to_user = line_map(original, texts[str(target.path)])
        in_users_lines(result.devices, str(target.path), to_user)
        result.device_lines = {to_user(n): kind for n, kind in result.device_lines.items()}
        result.loop_ends = {to_user(n): to_user(e) for n, e in result.loop_ends.items()}


def fixed_copy(target: Target, directory: Path, result: Verification) -> str:
    """The user's file is never written: fixes go to a copy that the runs execute; returns
    its text (which explains failures, in place of the user's file)."""
    from devlint.lint.analyze import analyze_source
    from devlint.lint.fix import apply_fixes
    from devlint.core.source_text import decode_source_with_encoding

    source = target.source_path or target.path
    data = source.read_bytes()
    try:
        text, encoding = decode_source_with_encoding(data)
    except Exception as exc:
        result.fix_error = f"cannot fix {target.path}: {exc}"
        return data.decode("utf-8", "replace")
    outcome = apply_fixes(text, analyze_source(text, str(target.path)), unsafe=True)
    result.fix_error = outcome.error
    result.fixes_applied = [f.to_dict() for f in outcome.applied]
    fixed = directory / ("fixed-" + target.path.name + ".py")
    fixed.write_bytes(outcome.text.encode(encoding))
    target.source_path = fixed
    return outcome.text


def line_map(original: str, fixed: str) -> Callable[[int], int]:
    """Line N of the fixed copy -> its line in the user's file; a line a fix inserted maps to
    the user's line it was inserted above."""
    a, b = original.splitlines(), fixed.splitlines()
    mapping: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for j in range(j1, j2):
            mapping[j + 1] = min(i1 + (j - j1) if tag != "insert" else i1, max(len(a) - 1, 0)) + 1
    return lambda line: mapping.get(line, line)


def in_users_lines(devices: list[DeviceSummary], path: str, to_user: Callable[[int], int]) -> None:
    """Under --fix the runs report the fixed copy's lines: show the user's."""
    for summary in devices:
        run = summary.run
        error = run.error or {}
        sites = [error.get("frame"), error.get("cpu_origin"), run.stop.get("swallowed_at"),
                 *(error.get("user_frames") or [])]
        for site in sites:
            if site and site.get("path") == path:
                site["line"] = to_user(site["line"])
        if run.coverage:
            run.coverage["never_run"] = sorted({to_user(n) for n in run.coverage["never_run"]})
        for cut in run.cuts:
            cut["line"] = to_user(cut["line"])
        if summary.explanation is not None:
            summary.explanation.findings = [
                replace(f, line=to_user(f.line)) if f.path == path else f
                for f in summary.explanation.findings]


def summarize(runs: list[DeviceRun], strict: bool,
              texts: Optional[dict[str, str]] = None) -> list[DeviceSummary]:
    """A row per run (per rank under torchrun), each compared with the cpu run of its rank:
    at the same world size every rank sees the same shard and the same averaged gradients."""
    bases = {r.rank: r for r in runs if r.device == CPU}
    out = []
    for run in runs:
        summary = DeviceSummary(run)
        if run.error:
            summary.explanation = explain(run.error, texts)
        base = bases.get(run.rank)
        if run is not base and base is not None:
            summary.comparison = compare_run(base, run, strict)
        out.append(summary)
    return out


def compare_run(base: DeviceRun, run: DeviceRun, strict: bool) -> Comparison:
    if not base.ran and not run.ran:
        return Comparison(FAILED, "both runs failed")
    if not base.ran:
        return Comparison(FAILED, "the cpu run failed: nothing to compare with")
    if not run.ran:
        return Comparison(FAILED, "this run failed")
    return compare_losses(base.losses, run.losses, STRICT if strict else DEFAULT,
                          device_rng=run.device_rng,
                          mixed_precision=run.mixed_precision != base.mixed_precision)


# -- saying what to do --------------------------------------------------------------------------


def device_flag(source: str) -> Optional[str]:
    """The script's own command-line option for its device (`parser.add_argument('--device')`)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and (
                        DEVICE_FLAG.match(arg.value)):
                    return arg.value
    return None


def unchecked_hint(target: Target, options: VerifyOptions, source: Optional[str]) -> str:
    if source is None:
        try:
            source = target.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            source = ""
    flag = device_flag(source)
    if flag and not any("{device}" in arg or "cuda" in arg for arg in options.args):
        return (f"pass `-- {flag} {{device}}` (verify gives each run its own device: cpu, "
                f"cuda)")
    return ("if a flag, a setting or an environment variable picks the device, pass it after "
            "`--` ({device} becomes each run's own device)")


def user_chose_cuda(explanation: Explanation, options: VerifyOptions) -> str:
    """The cpu run failed for lack of CUDA because the user's own arguments asked for it."""
    if explanation.kind != NO_CUDA or explanation.findings:
        return explanation.note
    chosen = [arg for arg in options.args if "cuda" in arg.lower()]
    if not chosen:
        return explanation.note
    return (f"you passed `{' '.join(options.args)}`: the cpu run hides every accelerator, as a "
            f"machine without a GPU does, so a script told to use cuda fails there; pass "
            f"{{device}} instead of {chosen[0]!r} to give each run its own device")
