from dataclasses import dataclass

import torch


@dataclass
class Config:
    n_users: int = 80
    n_items: int = 150
    dim: int = 16
    negatives: int = 4
    # positives are 1 in (1 + negatives) of the pointwise labels: up-weight them
    pos_weight: float = 4.0
    lr: float = 5e-3
    batch_size: int = 64
    epochs: int = 2
    k: int = 10


def pick_device(prefer_gpu: bool = True) -> torch.device:
    if prefer_gpu and torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")
