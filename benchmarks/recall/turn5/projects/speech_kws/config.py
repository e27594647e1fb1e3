"""Run configuration for the keyword-spotting model."""
from dataclasses import dataclass

import torch


@dataclass
class Config:
    sample_rate: int = 16000
    n_fft: int = 400
    hop: int = 160
    n_mels: int = 40
    classes: int = 12
    batch_size: int = 64
    epochs: int = 10
    lr: float = 1e-3


def get_device() -> torch.device:
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")
