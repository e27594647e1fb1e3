from dataclasses import dataclass

import torch


@dataclass
class Config:
    window: int = 24
    horizon: int = 6
    hidden: int = 32
    layers: int = 2
    batch_size: int = 32
    epochs: int = 3
    lr: float = 3e-3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


CFG = Config()
