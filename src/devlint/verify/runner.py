"""The parent: one run per device, started by the launcher (side by side when the cores
allow), each in its own sandboxed view of the file system; a bounded tail of each run's output;
--timeout enforced in three stages (the hung stack via faulthandler, SIGTERM so the child
reports the steps it finished, SIGKILL); the results read back from JSON files.
Never imports torch.
"""
from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

from devlint.verify.launcher import FORK_AFTER_IMPORT, LaunchError, Launcher, kill_group
from devlint.verify.sandbox import View
from devlint.verify.spec import CPU, CUDA, CUDA_SIM, ChildSpec, device_argument

OUTPUT_TAIL = 4000
DEVLINT_ROOT = str(Path(__file__).resolve().parent.parent.parent)
STACK_GRACE_S = 0.5  # after SIGUSR1, for faulthandler to write the stack
TERM_GRACE_S = 5.0  # after SIGTERM, for the child to write the steps it finished


@dataclass
class VerifyOptions:
    script: Optional[Path] = None  # None with -m
    args: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)
    max_steps: int = 50
    max_batches: int = 8
    max_epochs: int = 2
    timeout: float = 600.0
    seed: int = 0
    strict: bool = False
    fix: bool = False
    show_output: bool = False
    module: str = ""
    keep_outputs: Optional[Path] = None
    parallel: Optional[bool] = None  # None: when the cores allow and no GPU timing is at stake
    coverage: bool = True

    @property
    def target_name(self) -> str:
        return f"-m {self.module}" if self.module else str(self.script)


@dataclass
class Target:
    """What a run executes, resolved once by the session."""

    path: Path  # the file that runs (the module's file under -m), absolute
    argv0: str  # sys.argv[0] as `python SCRIPT` would set it
    cwd: Path
    user_root: Path  # the user's code lives under it
    module: str = ""
    notebook: bool = False
    source_path: Optional[Path] = None  # the code to run instead of path's own


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
    step_kind: str = "optimizer"  # "backward": a loop without torch.optim
    accelerator: dict = field(default_factory=dict)  # {"used": bool, "type": "cuda" | "mps"}
    loaders: list[dict] = field(default_factory=list)  # caps.LoaderStats, as dicts
    stop: dict = field(default_factory=dict)  # {"reason", "swallowed_at"}
    coverage: dict = field(default_factory=dict)  # {"executable", "never_run"}
    notes: list[str] = field(default_factory=list)
    converted: list[str] = field(default_factory=list)  # saved files made CPU-loadable
    hang: str = ""  # faulthandler's stack of a run stopped by --timeout
    kept: str = ""  # where --keep-outputs put this run's files

    @property
    def ran(self) -> bool:
        """Ran to its end or to a cap; a non-zero sys.exit counts as a failure."""
        return self.status in ("completed", "stopped")

    @property
    def losses(self) -> list[Optional[float]]:
        """One number per step: the mean of the losses backpropagated in it."""
        out = []
        for step in self.steps:
            values = [v for v in step["losses"] if v is not None]
            out.append(sum(values) / len(values) if values else None)
        return out


# -- planning -----------------------------------------------------------------------------------
def plan(options: VerifyOptions, target: Target, device: str, workdir: Path,
         threads: int) -> ChildSpec:
    rundir = workdir / device
    rundir.mkdir()
    env = launcher_env(options)
    if device in (CPU, CUDA_SIM):
        env["CUDA_VISIBLE_DEVICES"] = ""
    return ChildSpec(
        device=device, script=target.argv0, path=str(target.path),
        source_path=str(target.source_path or ""), module=target.module,
        notebook=target.notebook,
        args=[arg.replace("{device}", device_argument(device)) for arg in options.args],
        max_steps=options.max_steps, max_batches=options.max_batches,
        max_epochs=options.max_epochs, seed=options.seed, strict=options.strict,
        cwd=str(target.cwd), view_root=str(rundir / "view"), user_root=str(target.user_root),
        result_path=str(rundir / "result.json"), hang_path=str(rundir / "hang.txt"),
        threads=threads, coverage=options.coverage, env=env,
        keep_outputs=options.keep_outputs is not None,
    )


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def parallel_runs(options: VerifyOptions, runs: int) -> int:
    """Side by side when there are cores for it; one after the other when a real GPU's step
    times are compared with the CPU's (sharing the cores would slow the CPU baseline)."""
    if runs < 2 or options.parallel is False:
        return 1
    if options.parallel is None and CUDA in options.devices:
        return 1
    return max(1, min(runs, usable_cores()))


def launcher_env(options: VerifyOptions) -> dict[str, str]:
    env = dict(os.environ)
    # hash randomisation is fixed when an interpreter starts: the zygote's is every run's
    env["PYTHONHASHSEED"] = str(options.seed)
    # devlint must be importable by the child even when run from a source tree
    env["PYTHONPATH"] = os.pathsep.join(p for p in (DEVLINT_ROOT, env.get("PYTHONPATH")) if p)
    if options.strict:
        env.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    return env


# -- a launcher kept warm across verifications (tests, long-lived callers) ----------------------
_warm: dict[tuple, tuple[Launcher, tempfile.TemporaryDirectory]] = {}
_keep_warm = False


@contextlib.contextmanager
def warm_launcher() -> Iterator[None]:
    """Within this block, verifications with the same environment share one launcher, which
    imports torch once for all of them; it is closed (every process killed) at the end."""
    global _keep_warm
    _keep_warm = True
    try:
        yield
    finally:
        _keep_warm = False
        while _warm:
            launcher, logs = _warm.popitem()[1]
            launcher.close()
            logs.cleanup()


@contextlib.contextmanager
def launcher_for(options: VerifyOptions) -> Iterator[Launcher]:
    """Start the launcher early: it imports torch (seconds) while the session fixes a copy."""
    env = launcher_env(options)
    if not _keep_warm:
        with tempfile.TemporaryDirectory(prefix="devlint-launcher-") as tmp:
            launcher = Launcher(env, Path(tmp) / "launcher.log")
            try:
                yield launcher
            finally:
                launcher.close()
        return
    # what a started interpreter cannot change; the rest of the environment comes with each run
    key = tuple(env.get(name)
                for name in ("PYTHONHASHSEED", "PYTHONPATH", "CUBLAS_WORKSPACE_CONFIG"))
    if key not in _warm or _warm[key][0].process.poll() is not None:
        logs = tempfile.TemporaryDirectory(prefix="devlint-launcher-")
        _warm[key] = (Launcher(env, Path(logs.name) / "launcher.log"), logs)
    yield _warm[key][0]


def run_all(options: VerifyOptions, target: Target, progress: Callable[[str], None],
            launcher: Launcher) -> list[DeviceRun]:
    with tempfile.TemporaryDirectory(prefix="devlint-verify-") as tmp:
        workdir = Path(tmp)
        parallel = parallel_runs(options, len(options.devices))
        threads = max(1, usable_cores() // parallel) if parallel > 1 else 0
        specs = [plan(options, target, device, workdir, threads) for device in options.devices]
        runs = _Scheduler(launcher, specs, options, progress, parallel).run()
        if options.keep_outputs is not None:
            for spec, run in zip(specs, runs):
                run.kept = keep_outputs(spec, target, options.keep_outputs)
        return runs


def keep_outputs(spec: ChildSpec, target: Target, keep: Path) -> str:
    """Copy what the run wrote in its view to KEEP/DEVICE/, laid out relative to the working
    directory (writes above it under _outside_cwd/)."""
    view = View(spec.view_root)
    if not os.path.isdir(view.root):
        return ""
    destination = keep / spec.device
    destination.mkdir(parents=True, exist_ok=True)
    for path, original in view.written(skip=frozenset({view.of(spec.path)})):
        relative = os.path.relpath(original, target.cwd)
        if relative.startswith(os.pardir):
            relative = os.path.join("_outside_cwd", original.lstrip(os.sep))
        out = destination / relative
        if os.path.isdir(path):
            out.mkdir(parents=True, exist_ok=True)
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, out)
    return str(destination)


# -- running ------------------------------------------------------------------------------------
class _Tail:
    """The last OUTPUT_TAIL bytes of one of a run's streams (a script may print gigabytes)."""

    def __init__(self, fd: int, echo=None):
        self.fd, self.echo = fd, echo
        os.set_blocking(fd, False)
        self.data = b""
        self.open = True

    def read(self, chunks: int = 16) -> None:
        """At most `chunks` reads: a script printing without pause must not keep the
        scheduler from its other runs and their timeouts."""
        for _ in range(chunks):
            if not self.open:
                return
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.open = False
                return
            if self.echo is not None:
                self.echo.write(chunk)
                self.echo.flush()
            self.data = (self.data + chunk)[-OUTPUT_TAIL:]

    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


@dataclass
class _Active:
    spec: ChildSpec
    pid: int
    started: float
    tails: tuple
    stage: str = "running"  # running | stack | term | kill
    stage_at: float = 0.0
    timed_out: bool = False


class _Scheduler:
    def __init__(self, launcher: Launcher, specs: list[ChildSpec], options: VerifyOptions,
                 progress: Callable[[str], None], parallel: int):
        self.launcher, self.specs, self.options = launcher, specs, options
        self.progress, self.parallel = progress, parallel
        self.selector = selectors.DefaultSelector()
        self.active: dict[int, _Active] = {}
        self.done: dict[str, DeviceRun] = {}

    def label(self, spec: ChildSpec) -> str:
        return f"[{self.specs.index(spec) + 1}/{len(self.specs)}] {spec.device}"

    def run(self) -> list[DeviceRun]:
        self.selector.register(self.launcher, selectors.EVENT_READ, None)
        queue = deque(self.specs)
        try:
            while queue or self.active:
                while queue and len(self.active) < self.parallel:
                    self.start(queue.popleft())
                for key, _ in self.selector.select(self.wait_s()):
                    if key.data is None:
                        self.on_events(self.launcher.events())
                    else:
                        key.data.read()
                self.enforce_timeouts()
        finally:
            for active in self.active.values():  # interrupted: stop them before going
                kill_group(active.pid, signal.SIGKILL)
                self._close(active)
            self.selector.close()
        return [self.done[spec.device] for spec in self.specs]

    def start(self, spec: ChildSpec) -> None:
        path = Path(spec.result_path).with_name("spec.json")
        spec.write(path)
        self.progress(f"{self.label(spec)}: running {self.options.target_name}")
        pipes = [os.pipe(), os.pipe()]
        fresh = spec.device == CUDA or not FORK_AFTER_IMPORT
        try:
            pid = self.launcher.start(str(path), (pipes[0][1], pipes[1][1]), fresh,
                                      timeout=self.options.timeout)
        except LaunchError as exc:
            for read, write in pipes:
                os.close(read)
                os.close(write)
            self.finish(spec, DeviceRun(spec.device, "setup-error",
                                        error={"type": "LaunchError", "message": str(exc)}))
            return
        echo = (sys.stdout.buffer, sys.stderr.buffer) if self.options.show_output else (None, None)
        tails = tuple(_Tail(read, e) for (read, _), e in zip(pipes, echo))
        for (_, write), tail in zip(pipes, tails):
            os.close(write)
            self.selector.register(tail.fd, selectors.EVENT_READ, tail)
        self.active[pid] = _Active(spec, pid, time.monotonic(), tails)

    def wait_s(self) -> Optional[float]:
        deadlines = [self._next_deadline(a) for a in self.active.values()]
        if not deadlines:
            return None
        return max(0.0, min(deadlines) - time.monotonic())

    def _next_deadline(self, active: _Active) -> float:
        if active.stage == "running":
            return active.started + self.options.timeout
        grace = {"stack": STACK_GRACE_S, "term": TERM_GRACE_S}.get(active.stage, 60.0)
        return active.stage_at + grace

    def enforce_timeouts(self) -> None:
        now = time.monotonic()
        for active in list(self.active.values()):
            if now < self._next_deadline(active):
                continue
            active.timed_out = True
            signals = {"running": ("stack", signal.SIGUSR1), "stack": ("term", signal.SIGTERM),
                       "term": ("kill", signal.SIGKILL)}
            if active.stage not in signals:
                continue
            active.stage, sig = signals[active.stage]
            active.stage_at = now
            if sig == signal.SIGKILL:
                kill_group(active.pid, sig)
            else:
                with contextlib.suppress(OSError):
                    os.kill(active.pid, sig)

    def on_events(self, events: list[dict]) -> None:
        for event in events:
            if event.get("launcher_gone"):
                for active in list(self.active.values()):
                    self._end(active, "the verify launcher exited")
                self.selector.unregister(self.launcher)
                return
            active = self.active.get(event.get("exited"))
            if active is not None:
                self._end(active, exit_code=event["code"])

    def _end(self, active: _Active, why: str = "", exit_code: Optional[int] = None) -> None:
        del self.active[active.pid]
        self._close(active)
        run = read_result(active.spec, active.timed_out, exit_code)
        if why:
            run.error = run.error or {"type": "LaunchError", "message": why}
        run.wall_s = run.wall_s or time.monotonic() - active.started
        run.stdout, run.stderr = (tail.text() for tail in active.tails)
        self.finish(active.spec, run)

    def _close(self, active: _Active) -> None:
        for tail in active.tails:
            tail.read(chunks=1 << 12)  # what the run wrote before it ended
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(tail.fd)
            os.close(tail.fd)
            tail.open = False

    def finish(self, spec: ChildSpec, run: DeviceRun) -> None:
        self.done[spec.device] = run
        self.progress(f"{self.label(spec)}: {describe_status(run)}")


def read_result(spec: ChildSpec, timed_out: bool, returncode: Optional[int]) -> DeviceRun:
    try:
        data = json.loads(Path(spec.result_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {"device": spec.device, "status": "timeout" if timed_out else "crashed"}
    known = DeviceRun.__dataclass_fields__
    run = DeviceRun(**{k: v for k, v in data.items() if k in known})
    if timed_out:
        run.status = "timeout"
        run.hang = hang_stack(Path(spec.hang_path), View(spec.view_root))
    elif run.status == "crashed":
        run.exit_code = returncode
    return run


def hang_stack(path: Path, view: View) -> str:
    """faulthandler's dump, with the view's paths shown as the user's."""
    try:
        text = path.read_bytes()[-OUTPUT_TAIL:].decode("utf-8", "replace")
    except OSError:
        return ""
    return text.replace(view.root, "").strip()


def describe_status(run: DeviceRun) -> str:
    steps = f"{len(run.steps)} step{'s' if len(run.steps) != 1 else ''}"
    if run.status == "stopped":
        return f"stopped after {steps} ({run.wall_s:.1f} s)"
    if run.status == "completed":
        return f"finished, {steps} ({run.wall_s:.1f} s)"
    if run.status == "timeout":
        return (f"timed out after {run.wall_s:.0f} s (--timeout) with {steps} done; "
                f"killed with its workers")
    if run.status == "terminated":
        return f"stopped by a SIGTERM from outside verify after {steps}"
    if run.status == "exited":
        return f"the script called sys.exit({run.exit_code!r}) after {steps}"
    if run.status == "crashed":
        return f"the process died (exit status {run.exit_code}) before reporting"
    error = run.error or {}
    return f"failed: {error.get('type', 'error')}: {first_line(error.get('message', ''))}"


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""
