"""The parent: one run per device, started by the launcher (side by side when the cores
allow), each isolated from the user's files (sandbox.py); a bounded tail of each run's output;
--timeout enforced in three stages (the hung stack via faulthandler, SIGTERM so the child
reports the steps it finished, SIGKILL); the results read back from JSON files.
Under --nproc N a device run is a torchrun job (torchrun.py): a result and an output tail per
rank, and the run's timeout stops every rank.
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

from devlint.verify import heartbeat
from devlint.verify.launcher import FORK_AFTER_IMPORT, LaunchError, Launcher, kill_group
from devlint.verify.sandbox import ISOLATION_ENV, Isolation, copy_limit, outermost
from devlint.verify.spec import (
    CPU, CUDA, CUDA_SIM, DEFAULT_TIMEOUT_S, HEARTBEAT_S, ChildSpec, device_argument,
    rank_dir, rank_streams,
)
from devlint.workspace.project import project_root

OUTPUT_TAIL = 4000
# torchrun's options that name where the nodes meet; a port in them is offset per device run
RENDEZVOUS_OPTIONS = ("--rdzv-endpoint", "--master-port", "--master-addr", "--nnodes")
PORTED_OPTIONS = {"--rdzv-endpoint", "--master-port"}
DEVLINT_ROOT = str(Path(__file__).resolve().parent.parent.parent)
STACK_GRACE_S = 0.5  # after SIGUSR1, for faulthandler to write the stack
TERM_GRACE_S = 5.0  # after SIGTERM, for the child to write the steps it finished
WHERE_GRACE_S = 0.3  # after the heartbeat's SIGUSR2, for faulthandler to write the stack
INTERRUPT_GRACE_S = 3.0  # after Ctrl-C or SIGTERM, for each run to report what it did


@dataclass
class VerifyOptions:
    script: Optional[Path] = None  # None with -m
    args: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)
    max_steps: int = 50
    max_batches: int = 8
    max_epochs: int = 2
    timeout: float = DEFAULT_TIMEOUT_S
    seed: int = 0
    strict: bool = False
    fix: bool = False
    show_output: bool = False
    module: str = ""
    keep_outputs: Optional[Path] = None
    parallel: Optional[bool] = None  # None: when the cores allow and no GPU timing is at stake
    coverage: bool = True
    nproc: int = 0  # ranks per node under torchrun; 0: one process per device, no torchrun
    launcher_args: list[str] = field(default_factory=list)  # torchrun's --nnodes, --rdzv-*
    profile: bool = False  # copies and syncs per step on the accelerator rows
    heartbeat_s: float = HEARTBEAT_S  # a progress line when no step came for this long; 0: none

    @property
    def rendezvous_given(self) -> bool:
        """The user named the rendezvous (several nodes): every node must run the devices in
        the same order, one at a time, each on its own port."""
        return any(arg.split("=")[0] in RENDEZVOUS_OPTIONS for arg in self.launcher_args)

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
    epoch_starts: list[int] = field(default_factory=list)  # steps done as each epoch began
    accelerator: dict = field(default_factory=dict)  # {"used": bool, "type": "cuda" | "mps"}
    loaders: list[dict] = field(default_factory=list)  # caps.LoaderStats, as dicts
    stop: dict = field(default_factory=dict)  # {"reason", "backstop", "swallowed_at"}
    cuts: list[dict] = field(default_factory=list)  # loops ended at a cap (loops.py)
    coverage: dict = field(default_factory=dict)  # {"executable", "never_run"}
    notes: list[str] = field(default_factory=list)
    converted: list[str] = field(default_factory=list)  # saved files made CPU-loadable
    hang: str = ""  # faulthandler's stack of a run stopped by --timeout
    kept: str = ""  # where --keep-outputs put this run's files
    isolation: dict = field(default_factory=dict)  # sandbox.Isolation.describe()
    rank: Optional[int] = None  # under torchrun: the global rank (None: not a torchrun run)
    local_rank: Optional[int] = None
    world_size: Optional[int] = None
    blame: str = ""  # a rank stopped because another failed: which one ("rank 1")
    profile: dict = field(default_factory=dict)  # --profile: profiler.Profiler.report()

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
    spec = ChildSpec(
        device=device, script=target.argv0, path=str(target.path),
        source_path=str(target.source_path or ""), module=target.module,
        notebook=target.notebook,
        args=[arg.replace("{device}", device_argument(device)) for arg in options.args],
        max_steps=options.max_steps, max_batches=options.max_batches,
        max_epochs=options.max_epochs, seed=options.seed, strict=options.strict,
        cwd=str(target.cwd), scratch=str(rundir), user_root=str(target.user_root),
        roots=user_tree(target, env), copy_roots=outermost([str(target.path.parent),
                                                            str(target.cwd)]),
        isolation=os.environ.get(ISOLATION_ENV, ""), copy_limit=copy_limit(),
        result_path=str(rundir / "result.json"), hang_path=str(rundir / "hang.txt"),
        threads=threads, coverage=options.coverage, env=env,
        keep_outputs=options.keep_outputs is not None, nproc=options.nproc,
        launcher_args=launcher_args(options, options.devices.index(device)),
        profile=options.profile,
    )
    for local_rank in range(spec.nproc):
        rank_dir(spec, local_rank).mkdir()
    return spec


def user_tree(target: Target, env: dict[str, str]) -> list[str]:
    """The folders a run may read but never write: the script's, the working directory, the
    project's root and the home directory (none inside another)."""
    folders = [str(target.path.parent), str(target.cwd),
               project_root(str(target.user_root)), env.get("HOME", "")]
    return outermost([f for f in folders if f and os.path.isdir(f)])


def launcher_args(options: VerifyOptions, run: int) -> list[str]:
    """torchrun's rendezvous options for the run-th device run: a port the user gave is
    offset by the run's number, so that one run never meets the previous one's store."""
    if not options.launcher_args:
        # One node: torchrun's own --standalone picks a free port for the rendezvous, so two
        # device runs side by side, or any other job on the machine (torchrun's default is
        # port 29500 for everyone), never meet each other's store.
        return ["--standalone"]
    out = []
    for arg in options.launcher_args:
        name, _, value = arg.partition("=")
        if name in PORTED_OPTIONS and run:
            host, colon, port = value.rpartition(":")
            if port.isdigit():
                value = f"{host}{colon}{int(port) + run}"
        out.append(f"{name}={value}" if value else name)
    return out


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def parallel_runs(options: VerifyOptions, runs: int) -> int:
    """Side by side when there are cores for it; one after the other when a real GPU's step
    times are compared with the CPU's (sharing the cores would slow the CPU baseline)."""
    if runs < 2 or options.parallel is False or options.rendezvous_given:
        return 1
    if options.parallel is None and CUDA in options.devices:
        return 1
    return max(1, min(runs, usable_cores()))


def threads_per_process(options: VerifyOptions, parallel: int) -> int:
    """torch's intra-op threads for each process, when processes share the cores (0: torch's
    own default)."""
    processes = parallel * max(1, options.nproc)
    return max(1, usable_cores() // processes) if processes > 1 else 0


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
        threads = threads_per_process(options, parallel)
        specs = [plan(options, target, device, workdir, threads) for device in options.devices]
        runs = _Scheduler(launcher, specs, options, progress, parallel).run()
        if options.keep_outputs is not None:
            for spec in specs:
                kept = keep_outputs(spec, target, options.keep_outputs)
                for run in runs:
                    if run.device == spec.device:
                        run.kept = kept
        return runs


def keep_outputs(spec: ChildSpec, target: Target, keep: Path) -> str:
    """Copy what the run wrote (its overlay layers, or what changed in its copies) to
    KEEP/DEVICE/, laid out relative to the working directory (writes above it under
    _outside_cwd/)."""
    isolation = Isolation.load(spec.scratch)
    if isolation is None:
        return ""
    destination = keep / spec.device
    destination.mkdir(parents=True, exist_ok=True)
    for path, original in isolation.written(skip=frozenset({spec.path})):
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
    tails: tuple  # the run's stdout and stderr (under torchrun: torchrun's own)
    stage: str = "running"  # running | stack | term | kill
    stage_at: float = 0.0
    timed_out: bool = False
    rank_tails: list = field(default_factory=list)  # (stdout, stderr) per local rank
    holders: list = field(default_factory=list)  # write ends of the ranks' FIFOs we hold
    steps_seen: Optional[int] = None  # the heartbeat's last reading of the step count
    quiet_since: float = 0.0  # since the last change of the step count, or the last beat
    last_step_at: float = 0.0  # when the step count last changed (or the run started)
    asked_at: float = 0.0  # when the heartbeat asked the run where it is (0: not asked)
    interrupted: bool = False  # stopped because verify itself was (Ctrl-C, SIGTERM)

    @property
    def all_tails(self) -> list:
        return [*self.tails, *(tail for pair in self.rank_tails for tail in pair)]


class _Scheduler:
    def __init__(self, launcher: Launcher, specs: list[ChildSpec], options: VerifyOptions,
                 progress: Callable[[str], None], parallel: int):
        self.launcher, self.specs, self.options = launcher, specs, options
        self.progress, self.parallel = progress, parallel
        self.selector = selectors.DefaultSelector()
        self.active: dict[int, _Active] = {}
        self.done: dict[str, list[DeviceRun]] = {}

    def label(self, spec: ChildSpec, run: Optional[DeviceRun] = None) -> str:
        rank = f" rank {run.rank}" if run is not None and run.rank is not None else ""
        return f"[{self.specs.index(spec) + 1}/{len(self.specs)}] {spec.device}{rank}"

    def run(self) -> list[DeviceRun]:
        self.selector.register(self.launcher, selectors.EVENT_READ, None)
        queue = deque(self.specs)
        try:
            while queue or self.active:
                while queue and len(self.active) < self.parallel:
                    self.start(queue.popleft())
                self.poll(self.wait_s())
                self.enforce_timeouts()
                self.heartbeats()
        except BaseException as exc:  # Ctrl-C, SIGTERM: report what each run did so far
            exc.partial_runs = self.stop_for_interruption()
            raise
        finally:
            for active in self.active.values():  # interrupted: stop them before going
                kill_group(active.pid, signal.SIGKILL)
                self._close(active)
            self.selector.close()
        return [run for spec in self.specs for run in self.done[spec.device]]

    def poll(self, timeout: Optional[float]) -> None:
        for key, _ in self.selector.select(timeout):
            if key.data is None:
                self.on_events(self.launcher.events())
            else:
                key.data.read()

    def stop_for_interruption(self) -> list[DeviceRun]:
        """Each running run dumps its stack (where it was), then gets SIGTERM, on which the
        child reports the steps it finished; those that say nothing within the grace are
        killed. Returns every run that started, finished or not, in the devices' order."""
        with _ignoring_interrupts():
            for active in self.active.values():
                active.interrupted = True
                with contextlib.suppress(OSError):
                    os.kill(active.pid, signal.SIGUSR1)
            time.sleep(STACK_GRACE_S if self.active else 0.0)
            for active in self.active.values():
                with contextlib.suppress(OSError):
                    os.kill(active.pid, signal.SIGTERM)
            deadline = time.monotonic() + INTERRUPT_GRACE_S
            while self.active and time.monotonic() < deadline:
                self.poll(max(0.0, deadline - time.monotonic()))
            for active in list(self.active.values()):
                kill_group(active.pid, signal.SIGKILL)
                self._end(active, "verify was interrupted")
        return [run for spec in self.specs for run in self.done.get(spec.device, [])]

    def heartbeats(self) -> None:
        """A line for a run that made no new step for --heartbeat seconds: its steps and
        the line of the script it is at (asked with SIGUSR2, read a moment later)."""
        every = self.options.heartbeat_s
        if not every:
            return
        now = time.monotonic()
        for active in self.active.values():
            if active.stage != "running":
                continue
            hang_path = self._reporting_spec(active.spec).hang_path
            steps = heartbeat.read_steps(hang_path)
            if steps != active.steps_seen or not active.quiet_since:
                active.steps_seen, active.quiet_since, active.asked_at = steps, now, 0.0
                active.last_step_at = now
            elif active.asked_at and now >= active.asked_at + WHERE_GRACE_S:
                self.progress(f"{self.label(active.spec)}: {self.where(active, now)}")
                active.asked_at, active.quiet_since = 0.0, now
            elif not active.asked_at and now >= active.quiet_since + every:
                active.asked_at = now
                if active.spec.nproc or not heartbeat.ask_where(active.pid, hang_path):
                    active.asked_at = now - WHERE_GRACE_S  # nothing to ask: say it now

    def where(self, active: _Active, now: float) -> str:
        steps = active.steps_seen or 0
        done = f"{steps} step{'s' if steps != 1 else ''} done" if steps else "no step yet"
        quiet = now - (active.last_step_at or active.started)
        line = f"still running after {now - active.started:.0f} s: {done}"
        line += f", none in the last {quiet:.0f} s" if steps else ""
        if active.spec.nproc:
            return line
        dump = hang_stack(heartbeat.paths(active.spec.hang_path)[0],
                          Isolation.load(active.spec.scratch))
        site = heartbeat.current_line(dump, active.spec.user_root)
        if site is not None:
            where = os.path.relpath(site["path"]) if not os.path.relpath(
                site["path"]).startswith("..") else site["path"]
            line += f"; now at {where}:{site['line']} in {site['function']}"
            line += f": {site['code']}" if site["code"] else ""
        return line

    def _reporting_spec(self, spec: ChildSpec) -> ChildSpec:
        """Under torchrun rank 0 counts the steps for the run."""
        return spec.for_rank(0) if spec.nproc else spec

    def start(self, spec: ChildSpec) -> None:
        path = Path(spec.result_path).with_name("spec.json")
        spec.write(path)
        ranks = f" on {spec.nproc} rank{'s' if spec.nproc != 1 else ''} (torchrun)" if (
            spec.nproc) else ""
        self.progress(f"{self.label(spec)}: running {self.options.target_name}{ranks}")
        pipes = [os.pipe(), os.pipe()]
        fresh = spec.device == CUDA or not FORK_AFTER_IMPORT
        try:
            pid = self.launcher.start(str(path), (pipes[0][1], pipes[1][1]), fresh,
                                      timeout=self.options.timeout)
        except LaunchError as exc:
            for read, write in pipes:
                os.close(read)
                os.close(write)
            failed = DeviceRun(spec.device, "setup-error",
                               error={"type": "LaunchError", "message": str(exc)})
            self.finish(spec, [failed])
            return
        echo = (sys.stdout.buffer, sys.stderr.buffer) if self.options.show_output else (None, None)
        tails = tuple(_Tail(read, e) for (read, _), e in zip(pipes, echo))
        for (_, write), tail in zip(pipes, tails):
            os.close(write)
            self.selector.register(tail.fd, selectors.EVENT_READ, tail)
        active = _Active(spec, pid, time.monotonic(), tails)
        for local_rank in range(spec.nproc):
            active.rank_tails.append(self.rank_tails(spec, local_rank, echo, active.holders))
        self.active[pid] = active

    def rank_tails(self, spec: ChildSpec, local_rank: int, echo, holders: list) -> tuple:
        """A rank's streams are FIFOs its process opens once torchrun started it; holding a
        write end of each keeps their readers from seeing an end before the rank begins."""
        out = []
        for fifo, e in zip(rank_streams(spec, local_rank), echo):
            os.mkfifo(fifo, 0o600)
            tail = _Tail(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK), e)
            holders.append(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            self.selector.register(tail.fd, selectors.EVENT_READ, tail)
            out.append(tail)
        return tuple(out)

    def wait_s(self) -> Optional[float]:
        deadlines = [self._next_deadline(a) for a in self.active.values()]
        if self.options.heartbeat_s:
            deadlines += [a.asked_at + WHERE_GRACE_S if a.asked_at else
                          (a.quiet_since or a.started) + self.options.heartbeat_s
                          for a in self.active.values()]
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
        wall_s = time.monotonic() - active.started
        if active.spec.nproc:
            runs = read_ranks(active, exit_code, wall_s)
        else:
            runs = [read_result(active.spec, active.timed_out, exit_code)]
            runs[0].stdout, runs[0].stderr = (tail.text() for tail in active.tails)
        for run in runs:
            if active.interrupted and run.status in ("terminated", "crashed", "torn-down"):
                run.status, run.error = "interrupted", None
                run.hang = hang_stack(Path(self._spec_of(active.spec, run).hang_path),
                                      Isolation.load(active.spec.scratch))
            elif why:
                run.error = run.error or {"type": "LaunchError", "message": why}
            run.wall_s = run.wall_s or wall_s
        self.finish(active.spec, runs)

    def _spec_of(self, spec: ChildSpec, run: DeviceRun) -> ChildSpec:
        return spec.for_rank(run.local_rank) if run.local_rank is not None else spec

    def _close(self, active: _Active) -> None:
        for fd in active.holders:
            os.close(fd)
        active.holders.clear()
        for tail in active.all_tails:
            tail.read(chunks=1 << 12)  # what the run wrote before it ended
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(tail.fd)
            os.close(tail.fd)
            tail.open = False

    def finish(self, spec: ChildSpec, runs: list[DeviceRun]) -> None:
        self.done[spec.device] = runs
        for run in runs:
            self.progress(f"{self.label(spec, run)}: {describe_status(run)}")


@contextlib.contextmanager
def _ignoring_interrupts() -> Iterator[None]:
    """A second Ctrl-C must not cut the partial report short (the main thread only)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def read_result(spec: ChildSpec, timed_out: bool, returncode: Optional[int]) -> DeviceRun:
    try:
        data = json.loads(Path(spec.result_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {"device": spec.device, "status": "timeout" if timed_out else "crashed"}
    known = DeviceRun.__dataclass_fields__
    run = DeviceRun(**{k: v for k, v in data.items() if k in known})
    if timed_out:
        run.status = "timeout"
        run.hang = hang_stack(Path(spec.hang_path), Isolation.load(spec.scratch))
    elif run.status == "crashed":
        run.exit_code = returncode
    return run


def read_ranks(active: _Active, exit_code: Optional[int], wall_s: float) -> list[DeviceRun]:
    """A result per local rank, the ranks torchrun tore down named as such; what torchrun said
    when no rank left a result (it never started them: a failed rendezvous, a bad option)."""
    spec, runs = active.spec, []
    for local_rank, tails in enumerate(active.rank_tails):
        run = read_result(spec.for_rank(local_rank), active.timed_out, None)
        run.local_rank = local_rank
        run.rank = run.rank if run.rank is not None else local_rank
        run.stdout, run.stderr = (tail.text() for tail in tails)
        runs.append(run)
    if exit_code not in (None, 0) and all(run.status == "crashed" for run in runs):
        said = last_lines(active.tails[1].text() or active.tails[0].text())
        for run in runs:
            run.status = "setup-error"
            run.error = {"type": "TorchrunError",
                         "message": f"torchrun exited with status {exit_code}: {said}"}
    blame_teardown(runs)
    return runs


def last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return " / ".join(lines[-count:]) or "(no output)"


# A rank whose peer died fails in its next collective with one of these (gloo, NCCL, the store).
_PEER_GONE = ("Connection closed by peer", "Connection reset by peer", "Broken pipe",
              "NCCL communicator was aborted", "failed to recv", "Socket Timeout",
              "Connection refused")


def blame_teardown(runs: list[DeviceRun]) -> None:
    """Name the rank that failed first. The ranks torchrun stopped because of it (SIGTERM, a
    SIGKILL after its grace, a collective whose peer is gone) were torn down: no failure of
    their own."""
    def peer_gone(run: DeviceRun) -> bool:
        message = (run.error or {}).get("message", "")
        return run.status == "error" and any(marker in message for marker in _PEER_GONE)

    culprits = [run for run in runs if run.status in ("error", "exited", "crashed")
                and not peer_gone(run)]
    if not culprits:
        return
    # a rank that reported its failure failed before one that was killed without a word
    first = min(culprits, key=lambda run: (run.status == "crashed", run.wall_s or 0.0))
    for run in runs:
        if run is first:
            continue
        if run.status == "terminated" or peer_gone(run) or (
                run.status == "crashed" and first.status != "crashed"):
            run.status, run.blame = "torn-down", f"rank {first.rank}"


def hang_stack(path: Path, view: Optional[Isolation]) -> str:
    """faulthandler's dump of the thread that hung (innermost frame first, so the head of
    the dump: a torchrun rank's stack is deep), with paths in copies shown as the user's."""
    try:
        text = path.read_bytes()[:1 << 16].decode("utf-8", "replace")
    except OSError:
        return ""
    threads = text.split("\n\n")
    current = next((t for t in threads if t.lstrip().startswith("Current thread")), text)
    if view is not None and view.root:
        current = current.replace(view.root, "")
    return current.strip()[:OUTPUT_TAIL]


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
    if run.status == "interrupted":
        return f"interrupted after {steps} ({run.wall_s:.1f} s)"
    if run.status == "torn-down":
        return f"stopped by torchrun after {run.blame} failed ({steps} done)"
    if run.status == "exited":
        return f"the script called sys.exit({run.exit_code!r}) after {steps}"
    if run.status == "crashed":
        return f"the process died (exit status {run.exit_code}) before reporting"
    error = run.error or {}
    return f"failed: {error.get('type', 'error')}: {first_line(error.get('message', ''))}"


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""
