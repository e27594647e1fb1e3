"""What the parent tells a child run, and the names of the devices it knows.

Parent and child speak JSON through files: stdout and stderr belong to the user's script.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Sequence

CPU, CUDA, CUDA_SIM = "cpu", "cuda", "cuda-sim"
KNOWN_DEVICES = (CPU, CUDA, CUDA_SIM)
DEVICE_LABELS = {
    CPU: "cpu",
    CUDA: "cuda",
    CUDA_SIM: "cuda (simulated on CPU)",
}

# Well under the outer limits CI jobs and `timeout` wrappers commonly use (10 minutes and more),
# so that verify's own report of where a run hung is printed before one of those fires.
DEFAULT_TIMEOUT_S = 300.0
HEARTBEAT_S = 30.0  # a progress line when a run made no new step for this long


@dataclass
class ChildSpec:
    """One run of the user's script on one device."""

    device: str
    script: str  # what the user named: argv[0]
    path: str  # the absolute path of the file that runs (the module's file under -m)
    source_path: str = ""  # the code to run instead of `path`'s (a fixed copy, a notebook's cells)
    module: str = ""  # -m: the module's dotted name
    notebook: bool = False  # cells run as one program: no __file__, `display` defined
    args: list[str] = field(default_factory=list)
    max_steps: int = 50
    max_batches: int = 8  # per DataLoader and epoch; 0: no cap
    max_epochs: int = 2  # 0: no cap
    seed: int = 0
    strict: bool = False
    cwd: str = ""  # the user's working directory (the run's, or its copy under the fallback)
    scratch: str = ""  # the run's own directory: results, its overlay layers or copies (sandbox)
    roots: list[str] = field(default_factory=list)  # the user's folders the run cannot write
    copy_roots: list[str] = field(default_factory=list)  # the fallback's: what it copies
    isolation: str = ""  # "": an overlay where the kernel allows it; "copy": the fallback
    copy_limit: int = 0  # bytes the fallback may copy
    user_root: str = ""  # frames under it (or its copy) are the user's code
    result_path: str = ""
    hang_path: str = ""  # where faulthandler writes the stack when the run is stopped
    threads: int = 0  # torch intra-op threads when runs share the cores; 0: torch's default
    env: dict = field(default_factory=dict)  # the script's whole environment
    coverage: bool = True
    keep_outputs: bool = False  # the parent copies what the run wrote once it ends
    nproc: int = 0  # under torchrun: ranks per node (one simulated GPU each); 0: one process
    launcher_args: list[str] = field(default_factory=list)  # --nnodes, --rdzv-* for torchrun
    local_rank: int = -1  # the rank this spec is for (for_rank); -1: the run as a whole
    profile: bool = False  # --profile: copies and syncs per step, by line (profiler.py)

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self)), encoding="utf-8")

    @classmethod
    def read(cls, path: str) -> "ChildSpec":
        return cls(**json.loads(Path(path).read_text(encoding="utf-8")))

    def for_rank(self, local_rank: int) -> "ChildSpec":
        """The spec of one torchrun rank: its own result, stack and output files; the run's
        isolation (the node's file system) is shared with the other ranks of the run."""
        directory = rank_dir(self, local_rank)
        return replace(self, local_rank=local_rank, result_path=str(directory / "result.json"),
                       hang_path=str(directory / "hang.txt"))


def rank_dir(spec: ChildSpec, local_rank: int) -> Path:
    return Path(spec.result_path).parent / f"rank{local_rank}"


def rank_streams(spec: ChildSpec, local_rank: int) -> tuple[Path, Path]:
    """The FIFOs a rank's stdout and stderr go to (the parent reads their tails)."""
    directory = rank_dir(spec, local_rank)
    return directory / "stdout", directory / "stderr"


def device_argument(device: str) -> str:
    """What `{device}` in the script's arguments becomes for a run on `device`."""
    return CPU if device == CPU else CUDA


def is_simulated(device: str) -> bool:
    return device == CUDA_SIM


def parse_devices(text: str, known: Sequence[str] = KNOWN_DEVICES) -> list[str]:
    """`cpu,cuda-sim` -> ['cpu', 'cuda-sim']; names outside `known` raise ValueError."""
    devices = [d.strip().lower() for d in text.split(",") if d.strip()]
    unknown = [d for d in devices if d not in known]
    if unknown:
        raise ValueError(f"unknown device {unknown[0]!r} (known: {', '.join(known)})")
    if not devices:
        raise ValueError("no device given")
    return list(dict.fromkeys(devices))
