from dataclasses import dataclass, field

import torch


def pick_device(prefer_gpu: bool = True) -> torch.device:
    if prefer_gpu and torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


@dataclass
class TrainConfig:
    timesteps: int = 60
    channels: int = 32
    time_dim: int = 32
    batch_size: int = 64
    epochs: int = 3
    lr: float = 2e-3
    n_samples: int = 8
    out_png: str = "/tmp/tinydiff_samples.png"
    device: torch.device = field(default_factory=pick_device)
