"""Imbalanced binary classification; config as a dataclass, loss built from it."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    n_features: int = 24
    hidden: int = 48
    epochs: int = 4
    batch_size: int = 64
    lr: float = 1e-3
    # ~1 positive in 5: up-weight the positives
    pos_weight: torch.Tensor = field(default_factory=lambda: torch.tensor([4.0]))
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


def make_data(cfg, n=800):
    g = torch.Generator().manual_seed(21)
    x = torch.randn(n, cfg.n_features, generator=g)
    y = ((x[:, 0] + 0.5 * x[:, 1]) > 1.0).float()
    return TensorDataset(x, y)


def build(cfg):
    model = nn.Sequential(
        nn.Linear(cfg.n_features, cfg.hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(cfg.hidden, 1)
    ).to(cfg.device)
    criterion = nn.BCEWithLogitsLoss(pos_weight=cfg.pos_weight)  # expect: DEV012
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    return model, criterion, optimizer


def main():
    cfg = Config()
    loader = DataLoader(make_data(cfg), batch_size=cfg.batch_size, shuffle=True)
    model, criterion, optimizer = build(cfg)

    # sanity check: can one batch go through, and is the initial loss sensible?
    xb, yb = next(iter(loader))
    xb, yb = xb.to(cfg.device), yb.to(cfg.device)  # expect: DEV003
    with torch.no_grad():
        print("initial loss", criterion(model(xb).squeeze(1), yb).item())

    for epoch in range(cfg.epochs):
        model.train()
        tp = fp = fn = 0
        for xb, yb in loader:
            logits = model(xb).squeeze(1)  # also: DEV002
            loss = criterion(logits, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            pred = logits.detach() > 0
            tp += (pred & (yb > 0)).sum().item()
            fp += (pred & (yb == 0)).sum().item()
            fn += (~pred & (yb > 0)).sum().item()
        prec = tp / max(tp + fp, 1)
        rec = tp / max(tp + fn, 1)
        print(f"epoch {epoch}: loss {loss.item():.3f} precision {prec:.2f} recall {rec:.2f}")


if __name__ == "__main__":
    main()
