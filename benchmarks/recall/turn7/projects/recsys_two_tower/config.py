"""Run settings for the two-tower recommender (tuned on the lab's two-GPU box)."""
from dataclasses import dataclass

import torch


@dataclass
class RunConfig:
    n_users: int = 50
    n_items: int = 80
    dim: int = 16
    batch_size: int = 64
    epochs: int = 2
    lr: float = 5e-3
    device: str = "cuda:1" if torch.cuda.is_available() else "cpu"  # expect: DEV018
