"""N-BEATS (generic blocks) on a synthetic retail-sales panel.

Each block emits a backcast and a forecast; the residual backcast feeds the next block.
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    lookback: int = 28
    horizon: int = 7
    n_blocks: int = 3
    width: int = 128
    epochs: int = 3
    batch_size: int = 64
    lr: float = 1e-3
    # GPU 0 is used by the dashboard model server on the training box
    device: str = "cuda:1" if torch.cuda.is_available() else "cpu"  # expect: DEV018


class GenericBlock(nn.Module):
    def __init__(self, lookback, horizon, width):
        super().__init__()
        self.fc = nn.Sequential(
            nn.Linear(lookback, width), nn.ReLU(),
            nn.Linear(width, width), nn.ReLU(),
        )
        self.theta_b = nn.Linear(width, lookback)
        self.theta_f = nn.Linear(width, horizon)

    def forward(self, x):
        h = self.fc(x)
        return self.theta_b(h), self.theta_f(h)


class NBeats(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.blocks = [GenericBlock(cfg.lookback, cfg.horizon, cfg.width) for _ in range(cfg.n_blocks)]  # expect: DEV009
        self.horizon = cfg.horizon

    def forward(self, x):
        residual = x
        forecast = 0.0
        for block in self.blocks:
            backcast, f = block(residual)
            residual = residual - backcast
            forecast = forecast + f
        return forecast


def make_panel(n_series=40, length=200, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(length)
    level = rng.uniform(20, 100, size=(n_series, 1))
    weekly = rng.uniform(2, 10, size=(n_series, 1)) * np.sin(2 * np.pi * t / 7)
    trend = rng.uniform(-0.05, 0.1, size=(n_series, 1)) * t
    return (level + weekly + trend + rng.normal(0, 1, size=(n_series, length))).astype(np.float32)


def windows(panel, lookback, horizon):
    xs, ys = [], []
    for s in panel:
        for i in range(0, len(s) - lookback - horizon + 1, 3):
            w = s[i:i + lookback + horizon]
            scale = w[:lookback].mean()
            xs.append(w[:lookback] / scale)
            ys.append(w[lookback:] / scale)
    return torch.tensor(np.stack(xs)), torch.tensor(np.stack(ys))


def smape(pred, true):
    return (2 * (pred - true).abs() / (pred.abs() + true.abs() + 1e-8)).mean() * 100


def main():
    cfg = TrainConfig()
    device = torch.device(cfg.device)
    x, y = windows(make_panel(), cfg.lookback, cfg.horizon)
    n_train = int(0.9 * len(x))
    train = DataLoader(TensorDataset(x[:n_train], y[:n_train]), batch_size=cfg.batch_size, shuffle=True)
    val = DataLoader(TensorDataset(x[n_train:], y[n_train:]), batch_size=256)

    model = NBeats(cfg).to(device)
    params = [p for b in model.blocks for p in b.parameters()]
    opt = torch.optim.Adam(params, lr=cfg.lr)

    for epoch in range(cfg.epochs):
        for xb, yb in train:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.l1_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            scores = [smape(model(xb.to(device)), yb.to(device)).item() for xb, yb in val]
        print(f"epoch {epoch}: l1 {loss.item():.4f}  val sMAPE {np.mean(scores):.2f}")


if __name__ == "__main__":
    main()
