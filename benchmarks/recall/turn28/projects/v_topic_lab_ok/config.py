"""Settings shared by the training and evaluation entry points."""
from dataclasses import dataclass, field

import torch


@dataclass
class TrainConfig:
    vocab_size: int = 400
    n_classes: int = 4
    max_len: int = 24
    d_model: int = 48
    batch_size: int = 32
    epochs: int = 2
    lr: float = 3e-3
    label_smoothing: float = 0.05
    class_counts: list = field(default_factory=lambda: [500, 200, 80, 20])
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


CFG = TrainConfig()
