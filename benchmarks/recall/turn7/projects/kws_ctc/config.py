"""Settings for the keyword-spotting CTC model."""
from dataclasses import dataclass, field

import torch


def pick_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class Config:
    n_mels: int = 20
    n_symbols: int = 12
    hidden: int = 48
    batch_size: int = 8
    epochs: int = 2
    lr: float = 1e-3
    device: torch.device = field(default_factory=pick_device)
