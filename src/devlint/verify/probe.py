"""Is there a CUDA GPU torch can use? Answered without importing torch (1-3 s), from what the
driver and the installed torch build say on disk; once per process."""
from __future__ import annotations

import functools
import importlib.util
import os
import re
from pathlib import Path

_CUDA_BUILD = re.compile(r"^cuda\s*(?::[^=]*)?=\s*['\"]\d", re.M)


@functools.lru_cache(maxsize=1)
def gpu_present() -> bool:
    return torch_has_cuda() and driver_sees_gpu() and not cuda_hidden()


@functools.lru_cache(maxsize=1)
def gpu_count() -> int:
    """The GPUs torch would see: the driver's, narrowed by CUDA_VISIBLE_DEVICES."""
    if not gpu_present():
        return 0
    try:
        present = len(os.listdir("/proc/driver/nvidia/gpus"))
    except OSError:
        present = sum(1 for name in os.listdir("/dev") if re.fullmatch(r"nvidia\d+", name))
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return present
    return min(present, len([v for v in visible.split(",") if v.strip()]))


def torch_has_cuda() -> bool:
    """torch/version.py says `cuda = '12.4'` in a CUDA build, `cuda = None` in a CPU one."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return False
    for location in spec.submodule_search_locations:
        try:
            text = (Path(location) / "version.py").read_text(encoding="utf-8")
        except OSError:
            continue
        return bool(_CUDA_BUILD.search(text))
    return False


def driver_sees_gpu() -> bool:
    try:
        return bool(os.listdir("/proc/driver/nvidia/gpus"))
    except OSError:
        return os.path.exists("/dev/nvidia0")


def cuda_hidden() -> bool:
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    return visible is not None and visible.strip() in ("", "-1")
