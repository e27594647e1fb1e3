"""Whether a project declares that a file is deployed on a GPU machine: the fact DEV001 and
DEV008 ask of code that names CUDA with no CPU fallback.

A Cog predictor (Replicate's `cog`) is a class in the file that the project's `cog.yaml` names
under `predict:` (`predict: "predict.py:Predictor"`); `build: gpu: true` there builds its image
for, and runs it only on, a machine with a GPU. Such a file is GPU-only by the project's own
declaration, as a README that says "requires CUDA" is by prose, but this one is a file a tool
reads: a machine without a GPU never runs the predictor, so its `.to("cuda")` in `setup` is no
missing fallback. The predictor's other findings (what meets what on the GPU) stand.

`cog.yaml` is looked for in the checked file's folder and the folders above it, up to the
project's root; it is read as text (a line `predict: ...` at the top level, a line `gpu: true`
indented under `build:`), never with a YAML library, once per process and version.
"""
from __future__ import annotations

import os
import re
from typing import Optional

from devlint.workspace.project import project_of

NAME = "cog.yaml"
_PREDICT = re.compile(r"""^predict:\s*["']?([^"':#\s]+\.py)\s*:""")
_GPU = re.compile(r"""^\s+gpu:\s*(true|True|yes)\s*(#.*)?$""")
_TOP_KEY = re.compile(r"^[A-Za-z_]")
_READ = {}  # (path, size, mtime) -> (predicted file, gpu) of one cog.yaml
LIMIT = 1 << 20  # a cog.yaml is a few lines; a bigger file is not one


def gpu_deployment(path: str) -> bool:
    """Whether `path` is the predictor that a `cog.yaml` of its project deploys on a GPU."""
    target = os.path.abspath(str(path))
    root = project_of(target).root
    folder = os.path.dirname(target)
    while True:
        found = _declared(os.path.join(folder, NAME))
        if found is not None:
            predicted, gpu = found
            return gpu and predicted is not None and \
                os.path.normpath(os.path.join(folder, predicted)) == target
        parent = os.path.dirname(folder)
        if folder == root or parent == folder or not folder.startswith(root):
            return False
        folder = parent


def _declared(path: str) -> Optional[tuple]:
    """(the file `predict:` names, whether `build:` asks for a GPU), or None: no such file."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    if not os.path.isfile(path):
        return None
    key = (path, status.st_size, status.st_mtime_ns)
    if key not in _READ:
        predicted, gpu, section = None, False, None
        if status.st_size <= LIMIT:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    lines = handle.read().splitlines()
            except OSError:
                lines = []
            for line in lines:
                if _TOP_KEY.match(line):
                    section = line.split(":", 1)[0].strip()
                    match = _PREDICT.match(line)
                    if match:
                        predicted = match.group(1)
                elif section == "build" and _GPU.match(line):
                    gpu = True
        _READ[key] = (predicted, gpu)
    return _READ[key]
