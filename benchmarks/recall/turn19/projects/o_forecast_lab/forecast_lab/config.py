from dataclasses import dataclass

import torch


@dataclass
class Config:
    min_history: int = 24
    max_history: int = 72
    horizon: int = 12
    hidden: int = 32
    n_series: int = 24
    series_len: int = 240
    batch_size: int = 32
    epochs: int = 2
    lr: float = 2e-3
    ema_decay: float = 0.99
    device: str = "auto"          # "auto", "cpu", "cuda", "cuda:N"
    ckpt: str = "forecast_last.pt"


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dev = torch.device(name)
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            print(f"{name} requested but CUDA is not available, using cpu")
            return torch.device("cpu")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            print(f"{name} does not exist on this machine, using cuda:0")
            return torch.device("cuda", 0)
    return dev
