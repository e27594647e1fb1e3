"""The child process: run the user's script as `python SCRIPT ARGS` would, on one device.

    python -m devlint.verify.child SPEC.json

Writes its results to `spec.result_path` and ends with `os._exit`: the interpreter's teardown
after torch costs up to a second and can hang on DataLoader workers.
"""
from __future__ import annotations

import builtins
import json
import os
import random
import sys
import time
import traceback
import types
from pathlib import Path

from devlint.verify.spec import CPU, CUDA, CUDA_SIM, ChildSpec

MESSAGE_LIMIT = 4000
DEVLINT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def main(argv: list[str]) -> None:
    spec = ChildSpec.read(argv[1])
    started = time.perf_counter()
    result: dict = {"device": spec.device, "status": "error", "steps": []}
    try:
        result.update(run(spec))
    except BaseException as exc:  # a failure of devlint itself, not of the script
        result.update(status="setup-error", error=describe_error(exc, spec))
    result["wall_s"] = time.perf_counter() - started
    Path(spec.result_path).write_text(json.dumps(result), encoding="utf-8")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(0)


def run(spec: ChildSpec) -> dict:
    try:
        import torch
    except ImportError as exc:
        return {"status": "setup-error", "error": {"type": "ImportError", "message": str(exc)}}
    from devlint.verify.recorder import Recorder, StopRun

    seed_everything(spec.seed, torch)
    if spec.device == CPU:
        hide_accelerators(torch)
    elif spec.device == CUDA_SIM:
        from devlint.verify import shadow

        shadow.install(user_root=spec.user_root)
    if spec.strict:
        make_deterministic(torch)
    real_gpu = spec.device == CUDA and torch.cuda.is_available()
    recorder = Recorder(spec.max_steps, use_cuda_events=real_gpu)
    recorder.install(watch_device_rng=real_gpu)
    info: dict = {"torch_version": torch.__version__, "device_name": device_name(spec, torch)}
    try:
        exec_script(spec)
        info.update(status="completed")
    except StopRun:
        info.update(status="stopped")
    except SystemExit as exc:
        code = exc.code
        info.update(status="completed" if code in (None, 0) else "exited",
                    exit_code=code if isinstance(code, int) else str(code))
    except BaseException as exc:
        info.update(status="error", error=describe_error(exc, spec))
    recorder.uninstall()
    info.update(recorder.finish())
    return info


def exec_script(spec: ChildSpec) -> None:
    """`python SCRIPT ARGS`: argv, sys.path[0], a fresh `__main__`; under --fix the code
    comes from the fixed copy while `__file__` stays the user's path."""
    script = os.path.abspath(spec.script)
    code = compile(Path(spec.exec_path).read_bytes(), spec.exec_path, "exec", dont_inherit=True)
    main_module = types.ModuleType("__main__")
    main_module.__dict__.update(__file__=script, __builtins__=builtins, __cached__=None)
    sys.argv = [spec.script, *spec.args]
    sys.path[0] = os.path.dirname(script)
    sys.modules["__main__"] = main_module
    exec(code, main_module.__dict__)


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


def device_name(spec: ChildSpec, torch) -> str:
    if spec.device == CUDA and torch.cuda.is_available():
        return torch.cuda.get_device_name(0)
    if spec.device == CUDA_SIM:
        return "simulated on CPU"
    return "cpu"


def describe_error(exc: BaseException, spec: ChildSpec) -> dict:
    frames = user_frames(traceback.extract_tb(exc.__traceback__), spec)
    message = str(exc)
    return {
        "type": type(exc).__name__,
        "message": message[:MESSAGE_LIMIT],
        "frame": frames[0] if frames else None,
        "user_frames": frames[:20],
        "cpu_origin": getattr(exc, "devlint_cpu_origin", None),
        "traceback": "".join(traceback.format_exception(exc))[-MESSAGE_LIMIT:],
    }


def user_frames(frames, spec: ChildSpec) -> list[dict]:
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
        for frame in reversed(frames) if is_user_file(frame.filename, spec)
    ]


def is_user_file(filename: str, spec: ChildSpec) -> bool:
    """The script itself, or a module beside it that is not an installed package."""
    if filename == spec.exec_path:
        return True
    path = os.path.abspath(filename)
    if not spec.user_root or not path.startswith(spec.user_root.rstrip(os.sep) + os.sep):
        return False
    if path.startswith(DEVLINT_DIR):
        return False
    parts = Path(path).parts
    return not any(p in ("site-packages", "dist-packages") or p.startswith(".venv") for p in parts)


if __name__ == "__main__":
    main(sys.argv)
