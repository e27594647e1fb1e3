"""A script that needs a GPU by design: the line that chose CUDA when the cpu run failed for the
lack of one (a `"cuda"` default, `torch.cuda.set_device`, an NCCL process group), and the
argument to pass `{device}` to when the device comes from the command line.
Never imports torch.
"""
from __future__ import annotations

import ast
import re
from dataclasses import asdict, dataclass
from typing import Optional

from devlint.verify.errors import NO_CUDA, classify

# What an NCCL process group says on a machine without a GPU (a CPU build, or hidden GPUs).
NCCL_WITHOUT_GPU = ("doesn't have NCCL built in", "ProcessGroupNCCL is only supported with GPUs",
                    "NCCL is not available")
DEVICE_FLAG = re.compile(r"^--?[\w-]*device[\w-]*$")


@dataclass
class CudaChoice:
    """Where the script chose CUDA: `kind` is "default" (a `"cuda"` constant), "argument"
    (an option whose default is cuda: `flag` names it), "set_device" or "nccl"."""

    kind: str
    path: str
    line: int
    code: str
    flag: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def needs_gpu_error(error: dict) -> bool:
    """The run failed because the machine has no GPU (not because of a device mix-up)."""
    message = error.get("message", "")
    return (classify(error.get("type", ""), message) == NO_CUDA
            or any(marker in message for marker in NCCL_WITHOUT_GPU))


def cuda_choice(error: dict, path: str, source: str) -> Optional[CudaChoice]:
    """The line of the script at `path` that chose CUDA by design, for a run that failed with
    `error` for the lack of a GPU; None when the script never chose it in a way we can see."""
    if not needs_gpu_error(error):
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    lines = source.splitlines()
    failing = {f["line"] for f in error.get("user_frames") or [error.get("frame") or {}]
               if f and f.get("path") == path}
    choices = [CudaChoice(kind, path, node.lineno, _code(lines, node), flag)
               for node, kind, flag in _choices(tree)]
    calls = [c for c in choices if c.kind in ("set_device", "nccl")]
    at_failure = [c for c in calls if c.line in failing]
    if at_failure:
        return at_failure[0]
    arguments = [c for c in choices if c.kind == "argument"]
    if arguments:
        return arguments[0]
    defaults = [c for c in choices if c.kind == "default"]
    read = _names_read(tree, failing)
    feeding = [c for c in defaults if _assigned_names(tree, c.line) & read]
    return (feeding or defaults or calls or [None])[0]


def _choices(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            if name == "set_device" and _mentions_cuda_module(node.func):
                yield node, "set_device", ""
            elif name == "init_process_group" and any(
                    _is_cuda_text(arg, "nccl") for arg in [*node.args[:1], *(
                        k.value for k in node.keywords if k.arg == "backend")]):
                yield node, "nccl", ""
            elif name == "add_argument":
                flag = next((a.value for a in node.args if isinstance(a, ast.Constant)
                             and isinstance(a.value, str) and DEVICE_FLAG.match(a.value)), "")
                default = next((k.value for k in node.keywords if k.arg == "default"), None)
                if flag and default is not None and _is_cuda_text(default):
                    yield node, "argument", flag
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and (
                _is_cuda_text(node.value) or _is_cuda_device_call(node.value)):
            yield node, "default", ""


def _mentions_cuda_module(func: ast.AST) -> bool:
    """`torch.cuda.set_device`, `cuda.set_device` (not an accelerator-neutral helper)."""
    return isinstance(func, ast.Attribute) and "cuda" in ast.unparse(func.value)


def _is_cuda_text(node: ast.AST, word: str = "cuda") -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and (
        node.value == word or node.value.startswith(word + ":"))


def _is_cuda_device_call(node: ast.AST) -> bool:
    """`torch.device("cuda")`, `torch.device("cuda", 0)`."""
    return (isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name))
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "device" and bool(node.args) and _is_cuda_text(node.args[0]))


def _code(lines: list[str], node: ast.AST) -> str:
    return lines[node.lineno - 1].strip() if node.lineno <= len(lines) else ""


def _names_read(tree: ast.AST, lines: set[int]) -> set[str]:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load) and node.lineno in lines}


def _assigned_names(tree: ast.AST, line: int) -> set[str]:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Store) and node.lineno == line}


def flag_hint(choice: CudaChoice, target_name: str) -> str:
    """`devlint verify train.py -- --device={device}`: each run gets its own device."""
    if choice.kind != "argument":
        return ""
    return f"`devlint verify {target_name} -- {choice.flag}={{device}}`"
