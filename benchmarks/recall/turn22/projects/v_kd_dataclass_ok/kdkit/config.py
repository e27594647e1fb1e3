"""Run configuration; the device is picked once, here, with a CPU fallback."""
import os
from dataclasses import dataclass, field

import torch


def _default_device() -> str:
    if not torch.cuda.is_available():
        return "cpu"
    return f"cuda:{int(os.environ.get('LOCAL_RANK', 0))}"


@dataclass
class KDConfig:
    teacher_path: str = "/tmp/v_kd_project_teacher.pt"
    n_classes: int = 4
    d_in: int = 16
    epochs: int = 3
    batch_size: int = 32
    lr: float = 3e-3
    temperature: float = 3.0
    alpha: float = 0.6
    ema_decay: float = 0.9
    class_counts: tuple = (300, 150, 60, 30)
    device: str = field(default_factory=_default_device)
