"""Settings for the credit-risk model."""
from dataclasses import dataclass, field

import torch


def default_device():
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"


@dataclass
class Settings:
    n_features: int = 12
    hidden: int = 32
    batch_size: int = 32
    epochs: int = 2
    device: str = field(default_factory=default_device)
