from dataclasses import dataclass, field
from typing import List

import torch


def default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class DistillConfig:
    num_classes: int = 4
    in_dim: int = 32
    teacher_hidden: int = 256
    student_hidden: int = 32
    temperature: float = 4.0
    alpha: float = 0.8            # weight of the soft (KD) term
    label_smoothing: float = 0.05
    # the minority classes are up-weighted in the hard-label term
    class_weights: List[float] = field(default_factory=lambda: [0.5, 1.0, 2.0, 4.0])
    ema_decay: float = 0.995
    epochs: int = 3
    batch_size: int = 64
    lr: float = 3e-3
    teacher_ckpt: str = "/tmp/kdkit_teacher.pt"
    device: str = field(default_factory=default_device)
