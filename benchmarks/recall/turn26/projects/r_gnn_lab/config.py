"""Run configuration: the device is picked here once, with a CPU fallback."""
from dataclasses import dataclass, field

import torch


def pick_device(prefer: str = "cuda") -> torch.device:
    if prefer.startswith("cuda") and torch.cuda.is_available():
        return torch.device(prefer)
    return torch.device("cpu")


@dataclass
class TrainConfig:
    num_nodes: int = 300
    num_feats: int = 24
    num_classes: int = 4
    hidden: int = 32
    epochs: int = 40
    lr: float = 0.01
    weight_decay: float = 5e-4
    seed: int = 0
    device: torch.device = field(default_factory=pick_device)
