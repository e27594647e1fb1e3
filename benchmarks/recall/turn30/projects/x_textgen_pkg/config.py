from dataclasses import dataclass, field

import torch


def pick_device(prefer_gpu: bool = True) -> torch.device:
    if prefer_gpu and torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


@dataclass
class TrainConfig:
    block_size: int = 32
    batch_size: int = 16
    d_model: int = 48
    n_head: int = 4
    n_layer: int = 2
    lr: float = 3e-3
    steps: int = 60
    device: torch.device = field(default_factory=pick_device)
