"""Map a child's exception back to the user's line and to the static finding that explains it,
so the same bug carries the same rule code in `devlint check` and in `devlint verify`."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from devlint.workspace.project import same_file

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the static engine (libcst, 0.5 s) loads only to explain a failure
    from devlint.core.findings import Finding

DEVICE_MISMATCH, NO_CUDA, NUMPY_ON_DEVICE, OTHER = (
    "device mismatch", "no CUDA device", "numpy on a device tensor", "other")
# torchrun: a rank on another rank's GPU, ranks sharing one GPU, CPU tensors where NCCL needs
# GPU ones, and a script that needs torchrun's environment run without it.
# A GPU number the machine does not have (DEV018: `cuda:1` behind `is_available()`).
INVALID_ORDINAL = "no such GPU"
CROSS_GPU, SHARED_GPU, NCCL_CPU, NEEDS_TORCHRUN = (
    "two GPUs in one rank", "ranks sharing a GPU", "CPU tensors in an NCCL collective",
    "needs torchrun")

# Which rules can explain which failure. Codes without a rule yet simply never match.
EXPLAINING_CODES = {
    NO_CUDA: ("DEV001", "DEV008", "DEV013", "DEV022"),
    INVALID_ORDINAL: ("DEV018", "DEV013", "DEV008"),
    DEVICE_MISMATCH: ("DEV002", "DEV003", "DEV004", "DEV005", "DEV006", "DEV009", "DEV010",
                      "DEV012", "DEV015", "DEV016", "DEV017",
                      "DEV019", "DEV020", "DEV021"),
    NUMPY_ON_DEVICE: ("DEV011",),
    CROSS_GPU: ("DEV013", "DEV008"),
    SHARED_GPU: ("DEV013",),
    NCCL_CPU: ("DEV014", "DEV002", "DEV006"),
}
TORCHRUN_HINT = "this script expects torchrun: use --nproc N"
NO_CUDA_MARKERS = (
    "Torch not compiled with CUDA enabled", "Found no NVIDIA driver", "No CUDA GPUs are available",
    "CUDA driver initialization failed", "Attempting to deserialize object on a CUDA device",
    "no CUDA-capable device", "Invalid device id",
)


@dataclass
class Explanation:
    kind: str
    findings: list[Finding] = field(default_factory=list)
    how: str = ""  # where the explaining finding was found, in words
    note: str = ""  # the cause in words when no finding explains it (the user's own choice)

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "how": self.how,
            "note": self.note,
            "findings": [f.to_dict() for f in self.findings],
        }


# PyTorch's wordings for "a CPU tensor met a CUDA tensor", by the kernels that raise them.
MISMATCH_PATTERNS = tuple(re.compile(p) for p in (
    r"Expected all tensors to be on the same device",
    r"(are|is) not (at|on) the same device",  # RNNs: input and hidden
    r"Input type \(torch\.(cuda\.)?\w+\) and weight type \(torch\.(cuda\.)?\w+\)",  # conv
    r"Expected object of device type \w+ but got device type \w+",
    r"is on CPU, but expected (it|them) to be on GPU",
    r"[Ee]xpected .*device.* cuda.* but (got|found) .*cpu",
    r"Encountered different devices in metric calculation",  # torchmetrics (DEV019)
))


# Two GPUs met: the cross-device errors of TensorIterator, codegen, cuDNN and autograd.
CROSS_GPU_PATTERNS = tuple(re.compile(p) for p in (
    r"\b(cuda|mps):\d+ and (cuda|mps):\d+\b",
    r"to have the same device as tensor .* but device \d+ does not equal \d+",
    r"located on device with index '\d+' to a tensor located on device with index '\d+'",
    r"indices should be either on cpu or on the same device as the indexed tensor \(cuda",
))
NCCL_CPU_MARKERS = (
    "No backend type associated with device type cpu",
    "device_ids and output_device arguments only work with single-device/multiple-device GPU "
    "modules or CPU modules",
)
# What a script reading torchrun's environment meets without it (`os.environ["LOCAL_RANK"]`,
# init_process_group's env:// rendezvous).
TORCHRUN_ENV = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
                "MASTER_PORT", "GROUP_RANK")
ENV_NOT_SET = re.compile(r"environment variable (\w+) expected, but not set")


# What torch says when a CUDA API needs the real driver or library (a CPU build's stubs): on
# the simulated GPU these are the simulator's limits, never the script's failure.
SIMULATOR_GAP_MARKERS = NO_CUDA_MARKERS + (
    "Cannot initialize CUDA without ATen_cuda", "module 'torch._C' has no attribute", "CUDA build",
    "Storage device not recognized: cuda", "Tried to instantiate dummy base class",
    "nvidia-ml-py", "not available. Torch not compiled with CUDA",
    "Cannot access accelerator device when none is available",
)
_RAISED_IN_TORCH_CUDA = re.compile(r'File "[^"]*[/\\]torch[/\\]cuda[/\\][^"]*", line \d+')
_GAP_TYPES = ("RuntimeError", "AttributeError", "TypeError", "AssertionError", "ImportError",
              "ModuleNotFoundError", "NotImplementedError")


def is_simulator_gap(error: dict) -> bool:
    """On cuda-sim: a torch API the simulator cannot run (torch.cuda.nvtx, CUDA graphs,
    memory snapshots, a CUDA storage): a CUDA-library message, or an error raised inside
    torch.cuda's own code that is not a placement error."""
    error_type, message = error.get("type", ""), error.get("message", "")
    if classify(error_type, message) not in (OTHER, NO_CUDA) or error_type not in _GAP_TYPES:
        return False
    if any(marker in message for marker in SIMULATOR_GAP_MARKERS):
        return True
    innermost = error.get("traceback", "").rsplit('File "', 1)
    return len(innermost) == 2 and bool(_RAISED_IN_TORCH_CUDA.match('File "' + innermost[1]))


def classify(error_type: str, message: str) -> str:
    if "invalid device ordinal" in message:
        return INVALID_ORDINAL
    if "Duplicate GPU detected" in message:
        return SHARED_GPU
    if any(marker in message for marker in NCCL_CPU_MARKERS):
        return NCCL_CPU
    if needs_torchrun(error_type, message):
        return NEEDS_TORCHRUN
    if any(p.search(message) for p in MISMATCH_PATTERNS):
        return CROSS_GPU if any(p.search(message) for p in CROSS_GPU_PATTERNS) else (
            DEVICE_MISMATCH)
    if any(marker in message for marker in NO_CUDA_MARKERS):
        return NO_CUDA
    if error_type == "TypeError" and "to numpy" in message and "cuda" in message:
        return NUMPY_ON_DEVICE
    return OTHER


def needs_torchrun(error_type: str, message: str) -> bool:
    unset = ENV_NOT_SET.search(message)
    if unset:
        return unset.group(1) in TORCHRUN_ENV
    return error_type == "KeyError" and message.strip("'\"") in TORCHRUN_ENV


def explain(error: dict, sources: Optional[dict[str, str]] = None) -> Explanation:
    """`sources` gives the text of files that ran from elsewhere: a fixed copy under --fix,
    a notebook's cells joined into one program."""
    kind = classify(error.get("type", ""), error.get("message", ""))
    if kind == NEEDS_TORCHRUN:
        return Explanation(kind, note=TORCHRUN_HINT)
    codes = EXPLAINING_CODES.get(kind)
    frame = error.get("frame")
    if not codes or not frame:
        return Explanation(kind)
    frames = error.get("user_frames") or [frame]
    sources = _Sources(dict(sources or {}))  # frames and origin often share a file: once each
    sources.load(reversed([f["path"] for f in frames]))  # the script's own frames first
    for depth, outer in enumerate(frames):
        at_statement = _findings_at(sources.get(outer["path"]), outer["line"], codes)
        if at_statement:
            how = "at the failing statement" if depth == 0 else (
                f"at the call in `{outer['function']}` that led to the failure")
            return Explanation(kind, at_statement, how)
    origin = error.get("cpu_origin")
    if origin:
        at_origin = _findings_at(sources.get(origin["path"]), origin["line"], codes)
        if at_origin:
            device = origin.get("device", "cpu")  # or another rank's GPU
            where = "CPU" if device == "cpu" else device
            return Explanation(kind, at_origin, f"where the {where} tensor was created")
    for depth, outer in enumerate(frames):  # `model(x)` fails in forward; `model` is the bug
        feeding = _findings_feeding(sources.get(outer["path"]), outer["line"], codes)
        if feeding:
            line = "the failing line" if depth == 0 else f"the call in `{outer['function']}`"
            return Explanation(kind, feeding, f"where a name {line} uses was bound")
    failing = sources.get(frame["path"])
    nearest = _nearest_before(failing, frame["line"], codes)
    if nearest:
        return Explanation(kind, [nearest], "the closest finding above the failing line")
    return Explanation(kind)


def findings_at_site(site: dict, codes: tuple[str, ...],
                     sources: Optional[dict[str, str]] = None) -> list[Finding]:
    """The static findings of `codes` on the statement at a site ({"path", "line"})."""
    return _findings_at(_Sources(dict(sources or {})).get(site["path"]), site["line"], codes)


# A rank that put tensors on another rank's GPU: a checkpoint loaded without map_location, a
# fixed index, `'cuda'` before set_device.
FOREIGN_GPU_CODES = ("DEV008", "DEV013")

_Analysis = Optional[tuple[list["Finding"], ast.AST]]


def _findings_at(analysis: _Analysis, line: int, codes: tuple[str, ...]) -> list[Finding]:
    if analysis is None:
        return []
    findings, tree = analysis
    first, last = statement_span(tree, line)
    return [
        f for f in findings
        if f.code in codes and (
            first <= f.line <= last
            or f.related is not None and first <= f.related.location.line <= last
        )
    ]


def _findings_feeding(analysis: _Analysis, line: int, codes: tuple[str, ...]) -> list[Finding]:
    """Findings on assignments of names the failing statement reads: `device = 'cuda'` at
    line 8 explains `model.to(device)` failing at line 15."""
    if analysis is None:
        return []
    findings, tree = analysis
    first, last = statement_span(tree, line)
    used = {
        node.id for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
        and first <= node.lineno <= last
    }
    bound_at = {
        node.lineno: {t.id for t in ast.walk(node) if isinstance(t, ast.Name)
                      and isinstance(t.ctx, ast.Store)} | _changed_objects(node)
        for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))
    }
    for node in ast.walk(tree):  # `optimizer.load_state_dict(...)` sets what it holds (DEV017)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Attribute) and \
                node.value.func.attr == "load_state_dict" and \
                isinstance(node.value.func.value, ast.Name):
            bound_at.setdefault(node.lineno, set()).add(node.value.func.value.id)
    return [f for f in findings
            if f.code in codes and f.line <= line and bound_at.get(f.line, set()) & used]


def _changed_objects(assign: ast.stmt) -> set[str]:
    """`model.fc = nn.Linear(...)` changes what `model` holds (DEV015): the root name of an
    attribute set by the assignment."""
    targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
    roots = set()
    for target in targets:
        while isinstance(target, (ast.Attribute, ast.Subscript)):
            target = target.value
            if isinstance(target, ast.Name):
                roots.add(target.id)
    return roots


def _nearest_before(analysis: _Analysis, line: int, codes: tuple[str, ...]) -> Optional[Finding]:
    if analysis is None:
        return None
    above = [f for f in analysis[0] if f.code in codes and f.line <= line]
    return max(above, key=lambda f: f.line, default=None)


@dataclass
class _Sources:
    """Findings and syntax tree per file, read once for one explanation. A file's findings
    include those another analysed file's run showed in its code (a CPU tensor in the
    `forward` of a model the script moves): `load` every frame's file first."""
    texts: dict[str, str] = field(default_factory=dict)
    _by_path: dict[str, _Analysis] = field(default_factory=dict)
    _routed: dict[str, list] = field(default_factory=dict)  # file key -> others' findings there

    def load(self, paths) -> None:
        for path in paths:
            self.get(path)

    def get(self, path: str) -> _Analysis:
        if path not in self._by_path:
            analysis = _analyze(path, self.texts.get(path))
            if analysis is not None:
                findings, tree = analysis
                own = [f for f in findings if f.path == path]
                for finding in findings:
                    if finding.path != path:
                        self._route(finding)
                own += self._routed.setdefault(same_file(path), [])
                self._routed[same_file(path)] = own  # findings routed later land in this list too
                analysis = (own, tree)
            self._by_path[path] = analysis
        return self._by_path[path]

    def _route(self, finding: "Finding") -> None:
        from devlint.lint.runner import shown

        finding = shown(finding, finding.path, {})  # "(reached from train.py:12)"
        landed = self._routed.setdefault(same_file(finding.path), [])
        if all((f.line, f.column, f.code) != (finding.line, finding.column, finding.code)
               for f in landed):
            landed.append(finding)


def _analyze(path: str, text: Optional[str] = None) -> _Analysis:
    from devlint.lint.analyze import analyze_source
    from devlint.core.source_text import SourceError, decode_source

    try:
        if text is None:
            text = decode_source(Path(path).read_bytes())
        return analyze_source(text, path, keep_foreign=True), ast.parse(text)
    except (OSError, SourceError, SyntaxError, ValueError):
        return None


def statement_span(tree: ast.AST, line: int) -> tuple[int, int]:
    """Lines of the innermost simple statement on `line` (a multi-line call counts whole);
    the line itself when no statement holds it."""
    spans = [
        (node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt) and not isinstance(node, _COMPOUND)
        and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    return min(spans, key=lambda span: span[1] - span[0], default=(line, line))


_COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try,
             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) + (
    (ast.Match,) if hasattr(ast, "Match") else ())
