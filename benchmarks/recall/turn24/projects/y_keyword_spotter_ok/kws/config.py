import os
from dataclasses import dataclass
from typing import Optional

import torch


def get_device(name: Optional[str] = None) -> torch.device:
    """An explicit name wins (e.g. from --device); otherwise use the GPU when there is one."""
    name = name or os.environ.get("KWS_DEVICE")
    if name:
        return torch.device(name)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class Config:
    n_mels: int = 20
    n_keywords: int = 5
    hidden: int = 48
    min_frames: int = 20
    max_frames: int = 60
    epochs: int = 3
    batch_size: int = 16
    lr: float = 2e-3
    n_train: int = 200
    n_val: int = 60
    device: Optional[str] = None
    ckpt: str = "/tmp/y_kws_ok.pt"
