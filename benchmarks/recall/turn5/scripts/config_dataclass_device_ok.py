"""A config dataclass whose device field falls back to the CPU and whose GPU number is checked
against the number of visible GPUs."""
import argparse
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def pick_device(gpu: int) -> str:
    if torch.cuda.is_available() and gpu < torch.cuda.device_count():
        return f"cuda:{gpu}"
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class Config:
    gpu: int = 0
    epochs: int = 3
    device: str = field(default_factory=lambda: "cuda" if torch.cuda.is_available() else "cpu")

    def __post_init__(self):
        self.device = pick_device(self.gpu)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu", type=int, default=0)
    cfg = Config(gpu=parser.parse_args().gpu)
    x, y = torch.randn(1000, 10), torch.randn(1000, 1)
    loader = DataLoader(TensorDataset(x, y), batch_size=50, shuffle=True)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(cfg.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(cfg.device), yb.to(cfg.device)
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(cfg, loss.item())


if __name__ == "__main__":
    main()
