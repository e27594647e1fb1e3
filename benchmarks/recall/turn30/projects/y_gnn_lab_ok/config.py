"""Experiment configuration; the device is a dataclass field picked at construction time."""
from dataclasses import dataclass, field

import torch


def _default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class TrainConfig:
    n_blocks: int = 3
    nodes_per_block: int = 40
    feat_dim: int = 16
    hidden: int = 32
    num_layers: int = 2
    dropout: float = 0.5
    lr: float = 0.01
    weight_decay: float = 5e-4
    epochs: int = 60
    seed: int = 0
    device: str = field(default_factory=_default_device)
