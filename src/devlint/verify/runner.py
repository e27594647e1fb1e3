"""The parent: one child process per device, a timeout that kills the whole process group
(DataLoader workers included), results read back from a JSON file."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from devlint.verify.spec import CPU, CUDA_SIM, ChildSpec

OUTPUT_TAIL = 4000
DEVLINT_ROOT = str(Path(__file__).resolve().parent.parent.parent)


@dataclass
class VerifyOptions:
    script: Path
    args: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)
    max_steps: int = 50
    timeout: float = 600.0
    seed: int = 0
    strict: bool = False
    fix: bool = False
    show_output: bool = False


@dataclass
class DeviceRun:
    """What one child reported, or why it reported nothing."""

    device: str
    status: str  # completed | stopped | exited | error | timeout | crashed | setup-error
    steps: list[dict] = field(default_factory=list)
    setup: dict = field(default_factory=dict)
    error: Optional[dict] = None
    exit_code: Optional[object] = None
    device_rng: bool = False
    mixed_precision: bool = False
    device_name: str = ""
    torch_version: str = ""
    wall_s: float = 0.0
    stdout: str = ""
    stderr: str = ""

    @property
    def ran(self) -> bool:
        """Ran to its end or to --max-steps; a non-zero sys.exit counts as a failure."""
        return self.status in ("completed", "stopped")

    @property
    def losses(self) -> list[Optional[float]]:
        """One number per step: the mean of the losses backpropagated in it."""
        out = []
        for step in self.steps:
            values = [v for v in step["losses"] if v is not None]
            out.append(sum(values) / len(values) if values else None)
        return out


def run_device(spec: ChildSpec, options: VerifyOptions, workdir: Path) -> DeviceRun:
    spec_path = workdir / f"{spec.device}.spec.json"
    spec.result_path = str(workdir / f"{spec.device}.result.json")
    spec.write(spec_path)
    out_path, err_path = workdir / f"{spec.device}.out", workdir / f"{spec.device}.err"
    started = time.perf_counter()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        sink_out = None if options.show_output else out
        sink_err = None if options.show_output else err
        process = subprocess.Popen(
            [sys.executable, "-m", "devlint.verify.child", str(spec_path)],
            stdin=subprocess.DEVNULL, stdout=sink_out, stderr=sink_err,
            env=child_environment(spec), start_new_session=True,
        )
        timed_out = wait_or_kill(process, options.timeout)
    run = read_result(spec, timed_out, process.returncode)
    run.wall_s = run.wall_s or time.perf_counter() - started
    run.stdout = _tail(out_path)
    run.stderr = _tail(err_path)
    return run


def child_environment(spec: ChildSpec) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = str(spec.seed)
    # devlint must be importable by the child even when run from a source tree
    env["PYTHONPATH"] = os.pathsep.join(p for p in (DEVLINT_ROOT, env.get("PYTHONPATH")) if p)
    if spec.device in (CPU, CUDA_SIM):
        env["CUDA_VISIBLE_DEVICES"] = ""
    if spec.strict:
        env.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    return env


def wait_or_kill(process: subprocess.Popen, timeout: float) -> bool:
    """Wait for the child; on timeout kill its process group. Either way reap leftovers:
    DataLoader workers outlive a parent that ended with os._exit."""
    timed_out = False
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _stop_group(process)
    except BaseException:
        # Ctrl-C reaches only devlint: the child runs in its own session so that a timeout can
        # kill its whole group. Stop that group before giving up, or the training goes on.
        _stop_group(process)
        raise
    finally:
        _kill_group(process.pid, signal.SIGKILL)
        process.wait()
    return timed_out


def _stop_group(process: subprocess.Popen) -> None:
    _kill_group(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=3)
    except subprocess.TimeoutExpired:
        pass


def _kill_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def read_result(spec: ChildSpec, timed_out: bool, returncode: int) -> DeviceRun:
    path = Path(spec.result_path)
    if timed_out:
        return DeviceRun(spec.device, "timeout")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return DeviceRun(spec.device, "crashed", exit_code=returncode)
    known = DeviceRun.__dataclass_fields__
    return DeviceRun(**{k: v for k, v in data.items() if k in known})


def _tail(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-OUTPUT_TAIL:].decode("utf-8", "replace")


def run_all(options: VerifyOptions, exec_path: Path,
            progress: Callable[[str], None]) -> list[DeviceRun]:
    script = options.script.resolve()
    runs = []
    with tempfile.TemporaryDirectory(prefix="devlint-verify-") as tmp:
        for number, device in enumerate(options.devices, start=1):
            spec = ChildSpec(
                device=device, script=str(options.script), exec_path=str(exec_path),
                args=list(options.args), max_steps=options.max_steps, seed=options.seed,
                strict=options.strict, user_root=str(script.parent),
            )
            progress(f"[{number}/{len(options.devices)}] {device}: running {options.script}")
            run = run_device(spec, options, Path(tmp))
            progress(f"[{number}/{len(options.devices)}] {device}: {describe_status(run)}")
            runs.append(run)
    return runs


def describe_status(run: DeviceRun) -> str:
    steps = f"{len(run.steps)} step{'s' if len(run.steps) != 1 else ''}"
    if run.status == "stopped":
        return f"stopped after {steps} ({run.wall_s:.1f} s)"
    if run.status == "completed":
        return f"finished, {steps} ({run.wall_s:.1f} s)"
    if run.status == "timeout":
        return f"timed out after {run.wall_s:.0f} s (--timeout); killed with its workers"
    if run.status == "exited":
        return f"the script called sys.exit({run.exit_code!r}) after {steps}"
    if run.status == "crashed":
        return f"the process died (exit status {run.exit_code}) before reporting"
    error = run.error or {}
    return f"failed: {error.get('type', 'error')}: {first_line(error.get('message', ''))}"


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""
