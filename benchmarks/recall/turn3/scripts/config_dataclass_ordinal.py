"""Experiment config as a dataclass, with the device picked in the field's default."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainConfig:
    lr: float = 3e-4
    batch_size: int = 64
    steps: int = 500
    hidden: int = 256
    device: str = "cuda:1" if torch.cuda.is_available() else "cpu"  # expect: DEV018
    seeds: list = field(default_factory=lambda: [0, 1, 2])


def train(cfg: TrainConfig, seed: int) -> float:
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(10, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, 1)).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    w = torch.randn(10, 1, device=cfg.device)
    for _ in range(cfg.steps):
        x = torch.randn(cfg.batch_size, 10, device=cfg.device)
        loss = F.mse_loss(model(x), x @ w)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    cfg = TrainConfig()
    print({seed: train(cfg, seed) for seed in cfg.seeds})
