"""One `devlint verify`: fix a copy if asked, run every device, compare, explain failures."""
from __future__ import annotations

import importlib.util
import shutil
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from devlint import hints
from devlint.verify.compare import DEFAULT, STRICT, FAILED, Comparison, compare_losses
from devlint.verify.errors import Explanation, explain
from devlint.verify.runner import DeviceRun, VerifyOptions, run_all
from devlint.verify.spec import CPU, CUDA, CUDA_SIM


class VerifyUsageError(Exception):
    """Bad input from the user: exit 2 with this one line."""


@dataclass
class DeviceSummary:
    run: DeviceRun
    comparison: Optional[Comparison] = None  # None for the baseline
    explanation: Optional[Explanation] = None

    @property
    def ok(self) -> bool:
        if not self.run.ran:
            return False
        return self.comparison is None or self.comparison.ok

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

    @property
    def ok(self) -> bool:
        return bool(self.devices) and all(d.ok for d in self.devices)

    def summary(self, device: str) -> Optional[DeviceSummary]:
        return next((d for d in self.devices if d.run.device == device), None)


def default_devices() -> list[str]:
    """cpu, plus the real GPU when there is one, else the simulated one."""
    return [CPU, CUDA if cuda_present() else CUDA_SIM]


def cuda_present() -> bool:
    import torch  # the verify extra; only `verify` gets here

    return bool(torch.cuda.is_available())


def check_usage(options: VerifyOptions) -> None:
    if importlib.util.find_spec("torch") is None:
        raise VerifyUsageError(
            f"devlint verify runs your script under torch, which is not installed: {hints.TORCH}"
        )
    if not options.script.is_file():
        raise VerifyUsageError(f"{options.script}: no such file")
    if options.max_steps < 1:
        raise VerifyUsageError("--max-steps must be at least 1")
    if options.timeout <= 0:
        raise VerifyUsageError("--timeout must be positive")


def verify(options: VerifyOptions, progress: Callable[[str], None]) -> Verification:
    check_usage(options)
    if not options.devices:
        options.devices = default_devices()
    result = Verification(options)
    with tempfile.TemporaryDirectory(prefix="devlint-fixed-") as tmp:
        exec_path = options.script.resolve()
        if options.fix:
            exec_path = fixed_copy(options.script, Path(tmp), result)
            if result.fixes_applied:
                progress(f"applied {len(result.fixes_applied)} fix(es) to a copy: {exec_path}")
        runs = run_all(options, exec_path, progress)
        result.devices = summarize(runs, options.strict)
    return result


def fixed_copy(script: Path, directory: Path, result: Verification) -> Path:
    """The user's file is never written: fixes go to a copy with the same name."""
    from devlint.lint.analyze import analyze_source
    from devlint.lint.parse import decode_source_with_encoding
    from devlint.lint.fix import apply_fixes

    data = script.read_bytes()
    target = directory / script.name
    try:
        text, encoding = decode_source_with_encoding(data)
    except Exception as exc:
        result.fix_error = f"cannot fix {script}: {exc}"
        shutil.copyfile(script, target)
        return target
    outcome = apply_fixes(text, analyze_source(text, str(script)), unsafe=True)
    result.fix_error = outcome.error
    result.fixes_applied = [f.to_dict() for f in outcome.applied]
    target.write_bytes(outcome.text.encode(encoding))
    return target


def summarize(runs: list[DeviceRun], strict: bool) -> list[DeviceSummary]:
    base = next((r for r in runs if r.device == CPU), None)
    tolerance = STRICT if strict else DEFAULT
    out = []
    for run in runs:
        summary = DeviceSummary(run)
        if run.error:
            summary.explanation = explain(run.error)
        if run is not base and base is not None:
            summary.comparison = compare_run(base, run, tolerance)
        out.append(summary)
    return out


def compare_run(base: DeviceRun, run: DeviceRun, tolerance) -> Comparison:
    if not base.ran and not run.ran:
        return Comparison(FAILED, "both runs failed")
    if not base.ran:
        return Comparison(FAILED, "the cpu run failed: nothing to compare with")
    if not run.ran:
        return Comparison(FAILED, "this run failed")
    return compare_losses(base.losses, run.losses, tolerance, device_rng=run.device_rng,
                          mixed_precision=run.mixed_precision != base.mixed_precision)
