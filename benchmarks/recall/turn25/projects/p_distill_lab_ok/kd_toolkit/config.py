from dataclasses import dataclass, field
from typing import List

import torch


def pick_device() -> str:
    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        return "mps"
    return "cpu"


@dataclass
class KDConfig:
    vocab: int = 300
    seq_len: int = 16
    num_classes: int = 4
    teacher_dim: int = 64
    student_dim: int = 24
    temperature: float = 2.0
    alpha: float = 0.5
    class_weights: List[float] = field(default_factory=lambda: [1.0, 1.5, 2.0, 3.0])
    epochs: int = 2
    batch_size: int = 32
    lr: float = 2e-3
    teacher_ckpt: str = "teacher.pt"
    device: str = field(default_factory=pick_device)
