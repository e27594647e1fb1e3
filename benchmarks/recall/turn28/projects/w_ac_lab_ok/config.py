"""Run configuration: one dataclass, the device picked once here."""
from dataclasses import dataclass, field

import numpy as np
import torch


def default_device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class Config:
    obs_dim: int = 2
    act_dim: int = 2
    action_low: np.ndarray = field(default_factory=lambda: np.array([-0.5, -0.2], dtype=np.float32))
    action_high: np.ndarray = field(default_factory=lambda: np.array([0.5, 0.2], dtype=np.float32))
    hidden: int = 64
    gamma: float = 0.95
    tau: float = 0.05
    batch_size: int = 64
    buffer_size: int = 10_000
    steps: int = 600
    warmup: int = 100
    eval_every: int = 200
    noise_std: float = 0.1
    device: torch.device = field(default_factory=default_device)
