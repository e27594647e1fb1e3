"""Experiment config as a dataclass: the device chosen by a default_factory that checks what exists,
a GPU index honoured only when there are that many GPUs."""
import os
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


def pick_device() -> torch.device:
    want = int(os.environ.get("GPU_INDEX", "0"))
    if torch.cuda.is_available() and want < torch.cuda.device_count():
        return torch.device(f"cuda:{want}")
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


@dataclass
class Config:
    lr: float = 1e-3
    steps: int = 200
    device: torch.device = field(default_factory=pick_device)


def main(cfg: Config):
    model = nn.Linear(8, 2).to(cfg.device)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    for _ in range(cfg.steps):
        x = torch.randn(32, 8, device=cfg.device)
        y = (x[:, 0] > 0).long().to(cfg.device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(cfg.device, loss.item())


if __name__ == "__main__":
    main(Config())
