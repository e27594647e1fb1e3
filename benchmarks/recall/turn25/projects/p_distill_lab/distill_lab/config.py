from dataclasses import dataclass, field
from typing import List

import torch


def default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class DistillConfig:
    vocab: int = 300
    seq_len: int = 16
    num_classes: int = 4
    teacher_dim: int = 64
    student_dim: int = 24
    temperature: float = 3.0
    alpha: float = 0.6
    class_weights: List[float] = field(default_factory=lambda: [1.0, 1.0, 2.5, 4.0])
    epochs: int = 2
    batch_size: int = 32
    lr: float = 2e-3
    teacher_ckpt: str = "teacher.pt"
    device: str = field(default_factory=default_device)
