"""Tabular classifier trained from a dataclass config; the device field resolves itself."""
import json
import os
from dataclasses import dataclass, field, asdict
from typing import List

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def _default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class OptimConfig:
    lr: float = 3e-3
    weight_decay: float = 1e-4
    epochs: int = 3


@dataclass
class TrainConfig:
    n_features: int = 12
    n_classes: int = 3
    hidden: int = 32
    batch_size: int = 16
    device: str = field(default_factory=_default_device)
    class_weights: List[float] = field(default_factory=lambda: [1.0, 2.5, 4.0])
    optim: OptimConfig = field(default_factory=OptimConfig)


def make_data(cfg: TrainConfig, n: int = 96):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, cfg.n_features, generator=g)
    y = torch.randint(0, cfg.n_classes, (n,), generator=g)
    return DataLoader(TensorDataset(x, y), batch_size=cfg.batch_size, shuffle=True)


class TabularNet(nn.Module):
    def __init__(self, cfg: TrainConfig):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(cfg.n_features, cfg.hidden),
            nn.BatchNorm1d(cfg.hidden),
            nn.ReLU(),
            nn.Linear(cfg.hidden, cfg.n_classes),
        )

    def forward(self, x):
        return self.body(x)


class Trainer:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.device = torch.device(cfg.device)
        self.model = TabularNet(cfg).to(self.device)
        weights = torch.tensor(cfg.class_weights, device=self.device)
        self.criterion = nn.CrossEntropyLoss(weight=weights)
        self.opt = torch.optim.AdamW(
            self.model.parameters(), lr=cfg.optim.lr, weight_decay=cfg.optim.weight_decay
        )

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            logits = self.model(x)
            loss = self.criterion(logits, y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * x.size(0)
        return total / len(loader.dataset)

    def fit(self, loader):
        for epoch in range(self.cfg.optim.epochs):
            print(f"epoch {epoch} loss {self.train_epoch(loader):.4f}")


if __name__ == "__main__":
    cfg = TrainConfig(**json.loads(os.environ.get("TRAIN_OVERRIDES", "{}")))
    print(asdict(cfg))
    Trainer(cfg).fit(make_data(cfg))
