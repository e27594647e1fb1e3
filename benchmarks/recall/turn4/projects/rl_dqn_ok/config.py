from dataclasses import dataclass, field

import torch


def pick_device() -> torch.device:
    if torch.cuda.device_count() > 1:
        return torch.device("cuda:1")
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class DQNConfig:
    obs_dim: int = 4
    n_actions: int = 2
    gamma: float = 0.99
    batch_size: int = 32
    capacity: int = 2000
    device: torch.device = field(default_factory=pick_device)
