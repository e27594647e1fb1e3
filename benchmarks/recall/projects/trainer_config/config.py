"""Experiment settings."""
from dataclasses import dataclass, field

import torch


def pick_device():
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


@dataclass
class Config:
    num_classes: int = 4
    image_size: int = 28
    batch_size: int = 16
    epochs: int = 2
    lr: float = 1e-3
    device: torch.device = field(default_factory=pick_device)
    # the synthetic set is imbalanced: up-weight the rare classes
    class_weights: torch.Tensor = field(
        default_factory=lambda: torch.tensor([0.5, 1.0, 2.0, 4.0]))
