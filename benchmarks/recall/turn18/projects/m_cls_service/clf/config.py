import os
from dataclasses import dataclass, field

import torch


def default_device() -> str:
    if os.environ.get("CLF_FORCE_CPU") == "1":
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class Config:
    vocab_size: int = 600
    d_model: int = 64
    n_head: int = 4
    max_len: int = 48
    num_classes: int = 4
    class_counts: tuple = (500, 120, 60, 20)
    lr: float = 1e-3
    epochs: int = 2
    batch_size: int = 32
    ckpt_path: str = "/tmp/m_clf_service.pt"
    device: str = field(default_factory=default_device)
