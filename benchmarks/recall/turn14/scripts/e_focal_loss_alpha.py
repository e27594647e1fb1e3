"""Defect classifier on imbalanced tabular features, trained with focal loss.

Config lives in a dataclass so sweeps can override it from the CLI.
"""
from dataclasses import dataclass, field
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler


@dataclass
class Config:
    n_features: int = 20
    n_classes: int = 3
    gamma: float = 2.0
    alpha: list = field(default_factory=lambda: [0.25, 0.5, 1.0])
    lr: float = 1e-3
    epochs: int = 4
    batch_size: int = 64
    balanced_sampling: bool = False


class FocalLoss(nn.Module):
    """Multi-class focal loss (Lin et al. 2017) with per-class alpha."""

    def __init__(self, alpha, gamma=2.0, reduction="mean"):
        super().__init__()
        self.alpha = torch.as_tensor(alpha, dtype=torch.float32)  # expect: DEV010
        self.gamma = gamma
        self.reduction = reduction

    def forward(self, logits, targets):
        log_p = F.log_softmax(logits, dim=-1)
        log_pt = log_p.gather(1, targets.unsqueeze(1)).squeeze(1)
        pt = log_pt.exp()
        alpha_t = self.alpha[targets]
        loss = -alpha_t * (1 - pt) ** self.gamma * log_pt
        if self.reduction == "mean":
            return loss.mean()
        if self.reduction == "sum":
            return loss.sum()
        return loss


def make_dataset(cfg, n=2000, seed=0):
    rng = np.random.default_rng(seed)
    priors = np.array([0.8, 0.15, 0.05])
    y = rng.choice(cfg.n_classes, size=n, p=priors)
    w = rng.normal(size=(cfg.n_classes, cfg.n_features))
    x = w[y] + rng.normal(scale=1.5, size=(n, cfg.n_features))
    return TensorDataset(torch.from_numpy(x).float(), torch.from_numpy(y).long())


def build_loader(ds, cfg):
    if not cfg.balanced_sampling:
        return DataLoader(ds, batch_size=cfg.batch_size, shuffle=True)
    labels = ds.tensors[1]
    counts = torch.bincount(labels, minlength=cfg.n_classes).float()
    weights = (1.0 / counts)[labels]
    sampler = WeightedRandomSampler(weights, num_samples=len(labels), replacement=True)
    return DataLoader(ds, batch_size=cfg.batch_size, sampler=sampler)


def train(cfg):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = make_dataset(cfg)
    loader = build_loader(ds, cfg)

    model = nn.Sequential(
        nn.Linear(cfg.n_features, 64), nn.ReLU(),
        nn.Linear(64, 64), nn.ReLU(),
        nn.Linear(64, cfg.n_classes),
    ).to(device)
    criterion = FocalLoss(cfg.alpha, cfg.gamma).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        running = 0.0
        per_class = torch.zeros(cfg.n_classes)
        seen = torch.zeros(cfg.n_classes)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = criterion(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
            hits = (logits.argmax(1) == y).cpu()
            per_class.index_add_(0, y.cpu(), hits.float())
            seen.index_add_(0, y.cpu(), torch.ones_like(hits, dtype=torch.float))
        recall = (per_class / seen.clamp(min=1)).tolist()
        print(f"epoch {epoch} loss {running / len(loader):.4f} recall/class "
              + " ".join(f"{r:.2f}" for r in recall))


if __name__ == "__main__":
    cfg = Config()
    if "--balanced" in sys.argv:
        cfg.balanced_sampling = True
    train(cfg)
