"""Multivariate forecasting with an MLP backbone wrapped in RevIN (instance norm in, denorm out).

Series are z-scored with train-split statistics first; RevIN then removes per-window level
and scale so the backbone sees stationary windows.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def synthetic_series(n_steps=2000, n_vars=3, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n_steps)
    base = np.stack([np.sin(2 * np.pi * t / p) for p in (24, 48, 168)][:n_vars], axis=1)
    trend = np.linspace(0, 3, n_steps)[:, None]
    return (base * (1 + 0.5 * trend) + trend + 0.1 * rng.standard_normal((n_steps, n_vars))).astype(np.float32)


class Windows(Dataset):
    def __init__(self, arr, lookback, horizon):
        self.arr, self.L, self.H = arr, lookback, horizon

    def __len__(self):
        return len(self.arr) - self.L - self.H + 1

    def __getitem__(self, i):
        x = self.arr[i:i + self.L]
        y = self.arr[i + self.L:i + self.L + self.H]
        return torch.from_numpy(x), torch.from_numpy(y)


class RevIN(nn.Module):
    def __init__(self, num_features, eps=1e-5, affine=True):
        super().__init__()
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = nn.Parameter(torch.ones(num_features))
            self.bias = nn.Parameter(torch.zeros(num_features))

    def forward(self, x, mode):
        if mode == "norm":
            self.mean = x.mean(dim=1, keepdim=True).detach()
            self.stdev = torch.sqrt(x.var(dim=1, keepdim=True, unbiased=False) + self.eps).detach()
            x = (x - self.mean) / self.stdev
            if self.affine:
                x = x * self.weight + self.bias
            return x
        if mode == "denorm":
            if self.affine:
                x = (x - self.bias) / (self.weight + self.eps * self.eps)
            return x * self.stdev + self.mean
        raise ValueError(mode)


class MLPForecaster(nn.Module):
    def __init__(self, lookback, horizon, n_vars, hidden=128):
        super().__init__()
        self.revin = RevIN(n_vars)
        self.horizon, self.n_vars = horizon, n_vars
        self.net = nn.Sequential(nn.Linear(lookback, hidden), nn.ReLU(), nn.Linear(hidden, horizon))

    def forward(self, x):                       # x: (B, L, C)
        x = self.revin(x, "norm")
        y = self.net(x.transpose(1, 2)).transpose(1, 2)   # channel-independent
        return self.revin(y, "denorm")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lookback", type=int, default=96)
    ap.add_argument("--horizon", type=int, default=24)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    series = synthetic_series()
    n_train = int(0.8 * len(series))
    train, val = series[:n_train], series[n_train - args.lookback:]
    stats = torch.from_numpy(np.stack([train.mean(axis=0), train.std(axis=0)]))  # expect: DEV006
    mean, std = stats[0], stats[1]

    train_loader = DataLoader(Windows(train, args.lookback, args.horizon), batch_size=64, shuffle=True)
    val_loader = DataLoader(Windows(val, args.lookback, args.horizon), batch_size=64)

    model = MLPForecaster(args.lookback, args.horizon, series.shape[1]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        model.train()
        for xb, yb in train_loader:
            xb = (xb.to(device) - mean) / std
            yb = (yb.to(device) - mean) / std
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} train mse {loss.item():.4f}")

    # quick look at one validation batch before the full pass
    xb, yb = next(iter(val_loader))
    xb, yb = xb.to(device), yb.to(device)  # expect: DEV003
    print("val batch", tuple(xb.shape), tuple(yb.shape))

    model.eval()
    errs = []
    with torch.no_grad():
        for xb, yb in val_loader:
            pred = model((xb - mean) / std)  # also: DEV002
            errs.append(((pred * std + mean - yb) ** 2).mean().item())
    print(f"val mse {np.mean(errs):.4f}")


if __name__ == "__main__":
    main()
