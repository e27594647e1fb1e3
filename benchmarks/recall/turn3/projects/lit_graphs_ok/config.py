"""Settings for the graph regression run; the accelerator is left to Lightning, a GPU index checked against
device_count()."""
from dataclasses import dataclass, field

import torch


def default_devices():
    if torch.cuda.is_available():
        return [1] if torch.cuda.device_count() > 1 else [0]
    return 1


@dataclass
class Settings:
    hidden: int = 64
    layers: int = 3
    lr: float = 1e-3
    batch_size: int = 32
    max_epochs: int = 20
    devices: object = field(default_factory=default_devices)
