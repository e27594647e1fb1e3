from dataclasses import dataclass, field
from typing import Optional

import torch


def get_device(name: Optional[str] = None) -> torch.device:
    """Pick the training device: an explicit name wins, else the GPU when there is one."""
    if name:
        return torch.device(name)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class Config:
    n_channels: int = 3
    n_classes: int = 4
    window: int = 48
    hidden: int = 32
    kernel: int = 5
    epochs: int = 3
    batch_size: int = 16
    lr: float = 3e-3
    n_train: int = 160
    n_val: int = 48
    device: Optional[str] = None
    labels: tuple = field(default=("still", "walk", "run", "cycle"))
