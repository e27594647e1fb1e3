"""Temporal ConvNet forecaster for multi-sensor data (sliding windows, direct 1-step
head, recursive roll-out for longer horizons). Weight EMA for evaluation.

    python h_tcn_forecast_rollout.py --window 64 --epochs 5
"""
import argparse
import copy
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchmetrics
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, data, window):
        self.data = torch.from_numpy(data)  # (T, C)
        self.window = window

    def __len__(self):
        return len(self.data) - self.window

    def __getitem__(self, i):
        return self.data[i:i + self.window].T, self.data[i + self.window]


class CausalBlock(nn.Module):
    def __init__(self, c_in, c_out, dilation, k=3):
        super().__init__()
        self.pad = (k - 1) * dilation
        self.conv1 = nn.Conv1d(c_in, c_out, k, dilation=dilation)
        self.conv2 = nn.Conv1d(c_out, c_out, k, dilation=dilation)
        self.skip = nn.Conv1d(c_in, c_out, 1) if c_in != c_out else nn.Identity()

    def forward(self, x):
        y = F.gelu(self.conv1(F.pad(x, (self.pad, 0))))
        y = self.conv2(F.pad(y, (self.pad, 0)))
        return F.gelu(y + self.skip(x))


class TCN(nn.Module):
    def __init__(self, n_series, mean, std, channels=32, levels=4):
        super().__init__()
        self.register_buffer("mean", torch.as_tensor(mean, dtype=torch.float32).view(1, -1, 1))
        self.register_buffer("std", torch.as_tensor(std, dtype=torch.float32).view(1, -1, 1))
        blocks, c = [], n_series
        for i in range(levels):
            blocks.append(CausalBlock(c, channels, 2 ** i))
            c = channels
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.Linear(channels, n_series)

    def forward(self, x):  # x: (B, C, W) in original units
        z = (x - self.mean) / self.std
        h = self.blocks(z)[:, :, -1]
        return self.head(h) * self.std[..., 0] + self.mean[..., 0]


def synthetic(T=3000, C=3, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(T)
    base = np.stack([np.sin(2 * np.pi * t / p) for p in (24, 50, 168)], 1)
    mix = rng.normal(size=(3, C))
    return (base @ mix * 5 + 20 + rng.normal(scale=0.3, size=(T, C))).astype(np.float32)


@torch.no_grad()
def ema_update(ema, model, decay=0.995):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.lerp_(p, 1 - decay)


@torch.no_grad()
def rollout(model, history, steps, device):
    model.eval()
    window = torch.as_tensor(history.T[None], dtype=torch.float32, device=device)  # (1, C, W)
    preds = []
    for _ in range(steps):
        nxt = model(window)  # (1, C)
        preds.append(nxt)
        window = torch.cat([window[:, :, 1:], nxt.unsqueeze(-1)], dim=2)
    return torch.cat(preds).cpu().numpy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--window", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--horizon", type=int, default=48)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    data = synthetic()
    split = int(0.8 * len(data))
    train, test = data[:split], data[split - args.window:]
    train_loader = DataLoader(Windows(train, args.window), batch_size=64, shuffle=True)
    test_loader = DataLoader(Windows(test, args.window), batch_size=256)

    model = TCN(data.shape[1], train.mean(0), train.std(0)).to(device)
    ema = copy.deepcopy(model).requires_grad_(False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    mae = torchmetrics.MeanAbsoluteError().to(device)
    best_mae, ckpt = float("inf"), os.path.join(tempfile.mkdtemp(), "tcn_best.pt")

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.huber_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema_update(ema, model)

        ema.eval()
        mae.reset()
        with torch.no_grad():
            for x, y in test_loader:
                mae.update(ema(x.to(device)), y.to(device))
        epoch_mae = mae.compute().item()
        if epoch_mae < best_mae:
            best_mae = epoch_mae
            torch.save(ema.state_dict(), ckpt)
        print(f"epoch {epoch}: train huber {loss.item():.4f}  EMA test MAE {epoch_mae:.4f}")

    best = TCN(data.shape[1], train.mean(0), train.std(0))
    best.load_state_dict(torch.load(ckpt, map_location="cpu"))
    best.to(device)
    fc = rollout(best, train[-args.window:], args.horizon, device)
    err = np.abs(fc - data[split:split + args.horizon]).mean()
    print(f"{args.horizon}-step recursive forecast MAE {err:.4f}")


if __name__ == "__main__":
    main()
