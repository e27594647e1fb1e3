from dataclasses import dataclass

import torch


@dataclass
class TrainConfig:
    n_mels: int = 24
    hidden: int = 48
    epochs: int = 2
    batch_size: int = 6
    lr: float = 1e-3
    freq_mask: int = 4
    time_mask: int = 6
    resume: str = ""
    ckpt_out: str = "/tmp/x_asrkit_last.pt"
    device: str = "auto"


def resolve_device(name: str = "auto") -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)
