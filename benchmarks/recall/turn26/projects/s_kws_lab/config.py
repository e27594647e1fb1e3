from dataclasses import dataclass, field

import torch


def default_device() -> str:
    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        return "mps"
    return "cpu"


@dataclass
class Config:
    n_mels: int = 40
    frames: int = 61
    n_words: int = 10
    channels: int = 64
    batch_size: int = 32
    epochs: int = 2
    lr: float = 1e-3
    init_from: str = ""            # warm start from a checkpoint of the 35-word model
    out: str = "kws_last.pt"
    device: str = field(default_factory=default_device)
