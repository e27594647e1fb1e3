"""The child process: run the user's script as `python SCRIPT ARGS` would, on one device, isolated
from the user's files (sandbox.py: its own overlay layer, or copies where the kernel refuses).

    python -m devlint.verify.child SPEC.json     (or forked by the launcher, which calls main)

The result goes to `spec.result_path` as JSON (stdout and stderr belong to the script), written
once by `Outcome.finish` whichever way the run ends: the script returned, raised or called
sys.exit, a cap stopped it, it called os._exit, the parent sent SIGTERM (a timeout), or the
script swallowed the stop. Where `python` would run the `atexit` handlers (the script returned,
raised, called sys.exit or was stopped by a cap), they run first. `finish` then ends the process
with os._exit: the rest of the interpreter's teardown after torch costs up to a second and can
hang on DataLoader workers.
"""
from __future__ import annotations

import ast
import atexit
import builtins
import faulthandler
import json
import linecache
import os
import random
import runpy
import signal
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Optional

from devlint.verify import heartbeat
from devlint.verify.spec import CPU, CUDA, CUDA_SIM, ChildSpec

MESSAGE_LIMIT = 4000
DEVLINT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_real_exit = os._exit


def main(argv: list[str]) -> None:
    spec = ChildSpec.read(argv[1])
    isolation = enter_isolation(spec)  # before torchrun: every rank inherits it
    if spec.nproc:  # a torchrun job: this process is torchrun's agent, the ranks are children
        from devlint.verify import torchrun

        torchrun.run_agent(spec, argv[1])
    run_child(spec, isolation)


def enter_isolation(spec: ChildSpec):
    """Isolate this process and all it starts from the user's files, once per device run;
    put the code to run where `__file__` will name it. A run that cannot be isolated does
    not run: its result (each rank's) says why, and the process ends."""
    from devlint.verify.sandbox import IsolationError, isolate

    try:
        isolation = isolate(spec.roots, spec.copy_roots, spec.scratch, spec.isolation,
                            spec.copy_limit)
    except IsolationError as exc:
        for each in [spec.for_rank(r) for r in range(spec.nproc)] if spec.nproc else [spec]:
            outcome = Outcome(each)
            outcome.result.update(status="setup-error", error={
                "type": "IsolationError",
                "message": f"the run was not started: it cannot be isolated from your files "
                           f"({exc})"})
            outcome.write_result()
        _real_exit(1)
    isolation.save(spec.scratch)
    if not spec.notebook:  # the fixed copy runs in the script's place
        source = Path(spec.source_path or spec.path).read_bytes()
        placed = Path(isolation.run_path(spec.path))
        if placed.read_bytes() != source:
            placed.write_bytes(source)
    os.chdir(isolation.run_path(spec.cwd))
    return isolation


def run_child(spec: ChildSpec, isolation=None) -> None:
    """Run the script once (the whole run, or one torchrun rank) and report; never returns."""
    outcome = Outcome(spec)
    signal.signal(signal.SIGTERM, outcome.on_term)
    if isolation is None:  # a torchrun rank: its agent isolated the run
        from devlint.verify.sandbox import Isolation

        isolation = Isolation.load(spec.scratch)
    outcome.view = isolation
    try:
        outcome.result.update(run(spec, outcome))
    except BaseException as exc:  # a failure of devlint itself, not of the script
        outcome.result.update(status="setup-error", error=describe_error(exc, spec, outcome))
    outcome.exit_handlers()
    outcome.finish()


class Outcome:
    """What the run reports, and the one way it ends."""

    def __init__(self, spec: ChildSpec):
        self.spec = spec
        self.pid = os.getpid()
        self.started = time.perf_counter()
        self.result: dict = {"device": spec.device, "status": "error", "steps": []}
        if spec.local_rank >= 0:
            self.result.update(rank=_int_env("RANK"), local_rank=spec.local_rank,
                               world_size=_int_env("WORLD_SIZE"))
        self.parts: list = []  # objects with report() -> dict, read at the end
        self.view = None
        self.exec_path = spec.path
        self.finished = False

    # -- the ways a run ends besides returning ------------------------------------------------
    def on_term(self, signum, frame) -> None:
        if os.getpid() != self.pid:  # a forked worker of the script inherited the handler
            _real_exit(1)
        self.finish(status="terminated")

    def script_exit(self, code: int = 0) -> None:
        """os._exit in the script: report its steps before the process goes."""
        if os.getpid() != self.pid:  # DataLoader workers end with os._exit too
            _real_exit(code)
        self.finish(status="completed" if code == 0 else "exited", exit_code=code)

    def swallowed(self, stop) -> None:
        """The script caught the stop and went on: end the run here, naming the handler."""
        self.finish(status="stopped", stop={"reason": stop.reason, "backstop": stop.limit,
                                            "swallowed_at": handler_site(stop, self)})

    # -- the end --------------------------------------------------------------------------------
    def exit_handlers(self) -> None:
        """The script's `atexit` handlers, as the interpreter runs them at its end (an error
        in one is printed and the others run)."""
        if os.getpid() == self.pid and not self.finished:
            atexit._run_exitfuncs()

    def finish(self, **updates) -> None:
        if self.finished or os.getpid() != self.pid:
            return
        self.finished = True
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        faulthandler.disable()
        self.result.update(updates)
        for part in self.parts:
            try:
                self.result.update(part.report())
            except Exception as exc:  # a report that fails must not lose the others
                self.result.setdefault("notes", []).append(f"devlint: {type(exc).__name__}: {exc}")
        self.result["wall_s"] = time.perf_counter() - self.started
        self.write_result()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        _real_exit(self.exit_status())

    def write_result(self) -> None:
        if self.view is not None:
            self.result["isolation"] = self.view.describe()
        text = json.dumps(self.result)
        if self.view is not None and self.view.root:  # paths in copies, as the user knows them
            text = text.replace(json.dumps(self.view.root)[1:-1], "")
        path = Path(self.spec.result_path)
        partial = path.with_suffix(".partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)

    def exit_status(self) -> int:
        """0, but a rank that did not end well fails, so that torchrun stops the others."""
        if self.spec.local_rank < 0 or self.result.get("status") in ("completed", "stopped"):
            return 0
        return 1

    def original(self, path: str) -> str:
        return self.view.original(path) if self.view is not None else path


def run(spec: ChildSpec, outcome: Outcome) -> dict:
    try:
        import torch
    except ImportError as exc:
        return {"status": "setup-error", "error": {"type": "ImportError", "message": str(exc)}}
    from devlint.verify.recorder import StopRun

    source = enter_view(spec, outcome)
    seed_everything(spec.seed, torch)
    if spec.threads:
        torch.set_num_threads(spec.threads)
    setup = DeviceSetup(spec, torch, outcome.view)
    outcome.parts.append(setup)
    stopper, loops = instrument(spec, outcome, torch, setup)
    code = compile_script(source, outcome.exec_path)
    coverage = Coverage(code, outcome.exec_path) if spec.coverage else None
    if coverage is not None:
        outcome.parts.append(coverage)
        coverage.lines.start()
    info: dict = {"torch_version": torch.__version__, "device_name": setup.device_name()}
    try:
        exec_script(spec, code, outcome, source, loops)
        info.update(status="completed")
    except StopRun as stop:
        info.update(status="stopped", stop={"reason": stop.reason, "backstop": stop.limit,
                                            "at": stopped_at(stop, spec, outcome)})
    except SystemExit as exc:
        code_ = exc.code
        info.update(status="completed" if code_ in (None, 0) else "exited",
                    exit_code=code_ if isinstance(code_, int) else str(code_))
    except BaseException as exc:
        info.update(status="error", error=describe_error(exc, spec, outcome))
    finally:
        stopper.caught = True  # the stop reached us: nothing swallowed it
        if coverage is not None:
            coverage.lines.stop()
    return info


def stopped_at(stop: BaseException, spec: ChildSpec, outcome: Outcome) -> Optional[dict]:
    """The script's line where a stop was raised (the innermost of its frames)."""
    frames = user_frames(traceback.extract_tb(stop.__traceback__), spec, outcome)
    return frames[0] if frames else None


def enter_view(spec: ChildSpec, outcome: Outcome) -> bytes:
    """The run's environment and working directory (the user's own, or its copy); returns
    the code to run, which `enter_isolation` put where `__file__` names it."""
    if spec.env and spec.local_rank < 0:
        # the environment of this verification (a warm launcher started earlier); a rank's
        # is torchrun's, which added RANK, LOCAL_RANK, ... to it
        os.environ.clear()
        os.environ.update(spec.env)
    sys.dont_write_bytecode = True  # as before isolation: no __pycache__ written by verify
    # the ranks of a run share its isolation, as the processes of a job share the node's disk
    outcome.exec_path = outcome.view.run_path(spec.path)
    os.chdir(outcome.view.run_path(spec.cwd))
    return Path(spec.source_path or spec.path).read_bytes()


def instrument(spec: ChildSpec, outcome: Outcome, torch, setup: "DeviceSetup"):
    """Steps, loader caps, the loops' ends, the hang stack and os._exit: the hooks between the
    script and its end. Returns the Stopper they share and the Loops the script's loops ask."""
    from devlint.verify.caps import LoaderCaps
    from devlint.verify.loops import Loops
    from devlint.verify.recorder import Recorder, Stopper

    stopper = Stopper()
    stopper.on_swallowed = outcome.swallowed
    loops = Loops(spec.max_epochs)
    recorder = Recorder(spec.max_steps, use_cuda_events=setup.real_gpu, stopper=stopper,
                        loops=loops)
    recorder.install(watch_device_rng=setup.real_gpu)
    caps = LoaderCaps(spec.max_batches, spec.max_epochs, stopper, loops)
    caps.install()
    outcome.parts += [recorder, caps, loops]
    if spec.profile and spec.device != CPU:
        from devlint.verify.profiler import Profiler

        profiler = Profiler(recorder, outcome.view.run_path(spec.user_root), setup.real_gpu)
        profiler.install()
        outcome.parts.insert(0, profiler)  # reports (and stops) before the recorder reads
    hang = open(spec.hang_path, "w")  # the parent's SIGUSR1 before a timeout's SIGTERM
    faulthandler.register(signal.SIGUSR1, file=hang, all_threads=True)
    heartbeat.answer_where(spec.hang_path, faulthandler)  # the parent's heartbeat asks
    recorder.on_step = heartbeat.StepCounter(spec.hang_path)
    os._exit = outcome.script_exit
    return stopper, loops


def compile_script(source: bytes, path: str) -> types.CodeType:
    """The script's code with its loops made endable at the caps (loops.py); a source the
    rewrite cannot take is compiled as it is (its syntax error is the script's own)."""
    from devlint.verify.loops import instrument as endable

    try:
        tree = ast.parse(source, path)
    except (SyntaxError, ValueError):
        return compile(source, path, "exec", dont_inherit=True)
    return compile(endable(tree), path, "exec", dont_inherit=True)


class DeviceSetup:
    """The device this run pretends to have (or hides), and what the script did with it."""

    def __init__(self, spec: ChildSpec, torch, view):
        self.spec, self.torch, self.view = spec, torch, view
        self.real_gpu = spec.device == CUDA and torch.cuda.is_available()
        self.shadow = None
        if spec.device == CPU:
            hide_accelerators(torch)
        elif spec.device == CUDA_SIM:
            from devlint.verify import shadow

            home = spec.local_rank if spec.local_rank >= 0 else None  # the rank's own GPU
            self.shadow = shadow.install(user_root=view.run_path(spec.user_root),
                                         devices=max(1, spec.nproc), home=home)
        if spec.strict:
            make_deterministic(torch)
        from devlint.verify import distributed

        self.notes: list[str] = []
        distributed.patch_init_process_group(torch, self.shadow is not None,
                                             under_torchrun=spec.local_rank >= 0,
                                             notes=self.notes)

    def device_name(self) -> str:
        if self.real_gpu:
            return self.torch.cuda.get_device_name(0)
        return "simulated on CPU" if self.shadow is not None else "cpu"

    def report(self) -> dict:
        if self.spec.device == CPU:
            return {"notes": self.notes}
        if self.shadow is not None:
            from devlint.verify import shadow

            # what the run wrote in the user's folders goes with it, unless it is kept
            keep = self.spec.keep_outputs
            portable = shadow.make_saved_files_portable(lambda p: keep or not self.view.holds(p))
            return {"accelerator": shadow.usage(), "notes": shadow.notes() + self.notes,
                    "converted": portable}
        used = self.real_gpu and self.torch.cuda.max_memory_allocated() > 0
        return {"accelerator": {"used": used, "type": "cuda"}, "notes": self.notes}


class Coverage:
    def __init__(self, code: types.CodeType, filename: str):
        from devlint.verify.coverage import LineCoverage

        self.code = code
        self.lines = LineCoverage(filename)

    def report(self) -> dict:
        self.lines.stop()
        executable, never = self.lines.never_run(self.code)
        return {"coverage": {"executable": executable, "never_run": never}}


def exec_script(spec: ChildSpec, code: types.CodeType, outcome: Outcome, source: bytes,
                loops=None) -> None:
    """`python SCRIPT ARGS` (or `python -m MODULE ARGS`): argv, sys.path[0], a fresh __main__.
    Paths are the user's (their copies' under the fallback), so `__file__` names the script."""
    path = outcome.exec_path
    here = os.getcwd()
    sys.argv = [_argv0(spec, outcome), *spec.args]
    if spec.module:
        sys.path[0] = here  # as `python -m` puts the working directory first
        run_module(spec.module, code, loops)
        return
    sys.path[0] = os.path.dirname(path)
    main_module = types.ModuleType("__main__")
    main_module.__dict__.update(__builtins__=builtins, __cached__=None)
    if loops is not None:
        from devlint.verify.loops import NAME

        main_module.__dict__[NAME] = loops
    if spec.notebook:
        # a kernel has no __file__, and gives every cell `display`
        text = source.decode("utf-8", "replace")
        linecache.cache[path] = (len(text), None, text.splitlines(True), path)
        main_module.__dict__["display"] = _display
    else:
        main_module.__dict__["__file__"] = path
    sys.modules["__main__"] = main_module
    exec(code, main_module.__dict__)


def run_module(name: str, code: types.CodeType, loops) -> None:
    """`runpy.run_module(name, run_name="__main__", alter_sys=True)`, running `code` (the
    module's own, with its loops made endable) in place of the code runpy compiles."""
    from devlint.verify.loops import NAME

    try:
        _, module_spec, module_code = runpy._get_module_details(name)
        run_code = runpy._run_module_code
    except AttributeError:  # another Python's runpy: the module runs as it is
        runpy.run_module(name, run_name="__main__", alter_sys=True)
        return
    if loops is not None and module_spec.origin and os.path.samefile(module_spec.origin,
                                                                    code.co_filename):
        module_code = code
    run_code(module_code, {NAME: loops}, "__main__", module_spec)


def _argv0(spec: ChildSpec, outcome: Outcome) -> str:
    if os.path.isabs(spec.script) and outcome.view is not None:
        return outcome.view.run_path(spec.script)
    return spec.script


def _display(*objects, **kwargs) -> None:
    for obj in objects:
        print(repr(obj))


def _int_env(name: str) -> Optional[int]:
    try:
        return int(os.environ[name])
    except (KeyError, ValueError):
        return None


def seed_everything(seed: int, torch) -> None:
    random.seed(seed)
    try:
        import numpy

        numpy.random.seed(seed)
    except ImportError:
        pass
    torch.manual_seed(seed)  # seeds every CUDA generator too


def hide_accelerators(torch) -> None:
    """What a laptop without a GPU answers. The parent also sets CUDA_VISIBLE_DEVICES="", the
    only way a hard-coded `.to('cuda')` fails here as it does there. Each patch is its own
    function: torch._dynamo rejects one object bound to several torch names."""
    def cuda_is_available() -> bool:
        return False

    def cuda_device_count() -> int:
        return 0

    def cuda_is_capturing() -> bool:
        return False

    def mps_is_available() -> bool:
        return False

    def xpu_is_available() -> bool:
        return False

    def accelerator_is_available() -> bool:
        return False

    def current_accelerator(check_available: bool = False):
        return None

    def accelerator_device_count() -> int:
        return 0

    torch.cuda.is_available = cuda_is_available
    torch.cuda.device_count = cuda_device_count
    torch.cuda.is_current_stream_capturing = cuda_is_capturing
    torch.backends.mps.is_available = mps_is_available
    if hasattr(torch, "mps"):
        torch.mps.is_available = mps_is_available
    if hasattr(torch, "xpu"):
        torch.xpu.is_available = xpu_is_available
    accelerator = getattr(torch, "accelerator", None)
    if accelerator is not None:
        accelerator.is_available = accelerator_is_available
        accelerator.current_accelerator = current_accelerator
        accelerator.device_count = accelerator_device_count


def make_deterministic(torch) -> None:
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True, warn_only=True)


def describe_error(exc: BaseException, spec: ChildSpec, outcome: Outcome) -> dict:
    frames = user_frames(traceback.extract_tb(exc.__traceback__), spec, outcome)
    message = str(exc)
    return {
        "type": type(exc).__name__,
        "message": message[:MESSAGE_LIMIT],
        "frame": frames[0] if frames else None,
        "user_frames": frames[:20],
        "cpu_origin": getattr(exc, "devlint_cpu_origin", None),
        "compiler": _raised_by_the_compiler(exc),
        "traceback": "".join(traceback.format_exception(exc))[-MESSAGE_LIMIT:],
    }


def _raised_by_the_compiler(exc: BaseException) -> bool:
    """torch.compile's own failures (dynamo, inductor), not the script's errors it re-raises."""
    module = type(exc).__module__ or ""
    return module.startswith(("torch._dynamo", "torch._inductor"))


def user_frames(frames, spec: ChildSpec, outcome: Outcome) -> list[dict]:
    """The traceback's frames in the user's own files, innermost first."""
    return [
        {
            "path": frame.filename,
            "line": frame.lineno,
            "col": (frame.colno or 0) + 1,
            "end_col": (frame.end_colno or 0) + 1 if frame.end_colno is not None else None,
            "function": frame.name,
            "code": frame.line,
        }
        for frame in reversed(frames) if is_user_file(frame.filename, spec, outcome)
    ]


def is_user_file(filename: str, spec: ChildSpec, outcome: Outcome) -> bool:
    """The script itself, or a module beside it that is not an installed package; never
    `<frozen os>`, `<string>` and the like, which only look like paths under the root."""
    if filename == outcome.exec_path:
        return True
    if filename.startswith("<"):
        return False
    root = outcome.view.run_path(spec.user_root) if outcome.view is not None else spec.user_root
    path = os.path.abspath(filename)
    if not root or not path.startswith(root.rstrip(os.sep) + os.sep):
        return False
    if path.startswith(DEVLINT_DIR):
        return False
    parts = Path(path).parts
    return not any(p in ("site-packages", "dist-packages") or p.startswith(".venv") for p in parts)


def handler_site(stop, outcome: Outcome) -> Optional[dict]:
    """Where the stop was caught: the frame at the head of its traceback, and in it the
    `except:` / `except BaseException:` clause of the innermost try around that line."""
    tb = stop.__traceback__
    if tb is None:
        return None
    path, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
    handler = _handler_line("".join(linecache.getlines(path)), line)
    line = handler or line
    code = linecache.getline(path, line).split("#")[0].strip()  # the clause, not its comment
    return {"path": outcome.original(path), "line": line, "function": tb.tb_frame.f_code.co_name,
            "code": code}


def _handler_line(source: str, line: int) -> Optional[int]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    best = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try) or not node.body:
            continue
        if not node.body[0].lineno <= line <= (node.body[-1].end_lineno or line):
            continue
        for handler in node.handlers:
            if _catches_base_exception(handler.type) and (best is None or node.lineno > best[0]):
                best = (node.lineno, handler.lineno)
    return best[1] if best else None


def _catches_base_exception(kind) -> bool:
    if kind is None:
        return True
    names = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    return any(isinstance(n, ast.Name) and n.id == "BaseException" for n in names)


if __name__ == "__main__":
    main(sys.argv)
