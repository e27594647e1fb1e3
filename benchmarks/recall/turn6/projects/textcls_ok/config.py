"""Settings for the intent classifier; the device falls back to the CPU."""
from dataclasses import dataclass, field

import torch


def pick_device():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


@dataclass
class Config:
    vocab_size: int = 64
    dim: int = 32
    n_classes: int = 4
    batch_size: int = 16
    epochs: int = 2
    device: torch.device = field(default_factory=pick_device)
