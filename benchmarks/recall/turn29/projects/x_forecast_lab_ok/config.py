"""Run configuration for the multi-horizon load forecaster."""
from dataclasses import dataclass, field

import torch


def pick_device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class Config:
    lookback: int = 36
    horizon: int = 12
    hidden: int = 48
    batch_size: int = 32
    epochs: int = 3
    lr: float = 3e-3
    device: torch.device = field(default_factory=pick_device)
