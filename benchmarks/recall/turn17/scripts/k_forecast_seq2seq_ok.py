"""Encoder-decoder LSTM for multi-step load forecasting with scheduled teacher forcing.

    python k_forecast_seq2seq_ok.py --epochs 2 --ckpt s2s.pt
    python k_forecast_seq2seq_ok.py --epochs 2 --ckpt s2s.pt --resume
"""
import argparse
import os
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class SlidingWindow(Dataset):
    def __init__(self, series, lookback, horizon):
        self.s = torch.as_tensor(series, dtype=torch.float32)
        self.lookback, self.horizon = lookback, horizon

    def __len__(self):
        return self.s.shape[0] - self.lookback - self.horizon + 1

    def __getitem__(self, i):
        j = i + self.lookback
        return self.s[i:j], self.s[j:j + self.horizon, :1]     # predict the first column (load)


class Encoder(nn.Module):
    def __init__(self, n_in, hidden, layers):
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.lstm = nn.LSTM(n_in, hidden, layers, batch_first=True)

    def init_state(self, batch, device):
        z = torch.zeros(self.layers, batch, self.hidden, device=device)
        return z, z.clone()

    def forward(self, x):
        _, state = self.lstm(x, self.init_state(x.shape[0], x.device))
        return state


class Decoder(nn.Module):
    def __init__(self, hidden, layers):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, layers, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, y_prev, state):
        h, state = self.lstm(y_prev, state)
        return self.out(h), state


class Seq2Seq(nn.Module):
    def __init__(self, n_in, hidden=64, layers=2, horizon=12):
        super().__init__()
        self.encoder, self.decoder = Encoder(n_in, hidden, layers), Decoder(hidden, layers)
        self.horizon = horizon

    def forward(self, x, y=None, tf_ratio=0.0):
        state = self.encoder(x)
        step_in = x[:, -1:, :1]                                  # last observed load
        outs = []
        for t in range(self.horizon):
            pred, state = self.decoder(step_in, state)
            outs.append(pred)
            use_truth = y is not None and random.random() < tf_ratio
            step_in = y[:, t:t + 1] if use_truth else pred
        return torch.cat(outs, dim=1)


def make_series(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    load = 10 + 3 * np.sin(2 * np.pi * t / 24) + np.sin(2 * np.pi * t / 168) + 0.3 * rng.standard_normal(n)
    temp = 15 + 8 * np.sin(2 * np.pi * (t - 5) / 24) + rng.standard_normal(n)
    return np.stack([load, temp], axis=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lookback", type=int, default=48)
    ap.add_argument("--horizon", type=int, default=12)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--ckpt", default="s2s.pt")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    raw = make_series()
    split = int(0.8 * len(raw))
    mu, sigma = raw[:split].mean(0), raw[:split].std(0)
    series = (raw - mu) / sigma
    load_mu = torch.tensor(mu[0], dtype=torch.float32, device=device)
    load_sigma = torch.tensor(sigma[0], dtype=torch.float32, device=device)

    train_dl = DataLoader(SlidingWindow(series[:split], args.lookback, args.horizon), batch_size=64, shuffle=True)
    val_dl = DataLoader(SlidingWindow(series[split - args.lookback:], args.lookback, args.horizon), batch_size=128)

    model = Seq2Seq(series.shape[1], horizon=args.horizon)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    start = 0
    if args.resume and os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt, map_location=device)
        model.load_state_dict(ckpt["model"])
        model.to(device)
        opt.load_state_dict(ckpt["opt"])
        start = ckpt["epoch"] + 1
    model.to(device)
    loss_fn = nn.MSELoss()

    for epoch in range(start, start + args.epochs):
        tf = max(0.0, 0.8 - 0.2 * epoch)
        model.train()
        for x, y in train_dl:
            x, y = x.to(device), y.to(device)
            loss = loss_fn(model(x, y, tf_ratio=tf), y)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()

        model.eval()
        abs_err, n = 0.0, 0
        with torch.no_grad():
            for x, y in val_dl:
                x, y = x.to(device), y.to(device)
                pred = model(x) * load_sigma + load_mu
                abs_err += (pred - (y * load_sigma + load_mu)).abs().sum().item()
                n += y.numel()
        print(f"epoch {epoch} tf {tf:.1f} train {loss.item():.4f} val MAE {abs_err / n:.3f}")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
