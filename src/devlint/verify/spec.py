"""What the parent tells a child run, and the names of the devices it knows.

Parent and child speak JSON through files: stdout and stderr belong to the user's script.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

CPU, CUDA, CUDA_SIM = "cpu", "cuda", "cuda-sim"
KNOWN_DEVICES = (CPU, CUDA, CUDA_SIM)
DEVICE_LABELS = {
    CPU: "cpu",
    CUDA: "cuda",
    CUDA_SIM: "cuda (simulated on CPU)",
}


@dataclass
class ChildSpec:
    """One run of the user's script on one device."""

    device: str
    script: str  # what the user named: argv[0], __file__, sys.path[0]
    exec_path: str  # the file actually executed (a fixed copy under --fix)
    args: list[str] = field(default_factory=list)
    max_steps: int = 50
    seed: int = 0
    strict: bool = False
    result_path: str = ""
    user_root: str = ""  # frames under it are the user's code

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self)), encoding="utf-8")

    @classmethod
    def read(cls, path: str) -> "ChildSpec":
        return cls(**json.loads(Path(path).read_text(encoding="utf-8")))


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
