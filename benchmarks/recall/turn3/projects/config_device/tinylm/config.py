"""Run configuration for the tiny language model."""
from dataclasses import dataclass

import torch


@dataclass
class Config:
    vocab_size: int = 512
    dim: int = 128
    n_layers: int = 4
    n_heads: int = 4
    block_size: int = 128
    batch_size: int = 32
    lr: float = 3e-4
    max_steps: int = 2000
    ema_decay: float = 0.999
    # GPU 0 is shared with the notebook server.
    device: str = "cuda:1" if torch.cuda.is_available() else "cpu"  # expect: DEV018
