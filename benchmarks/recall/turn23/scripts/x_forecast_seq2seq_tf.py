"""GRU encoder-decoder forecaster on a synthetic load curve.

Sliding windows over a standardised series, teacher forcing with a decaying
ratio, and the horizon predictions mapped back to the original scale.
"""
import argparse
import math
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Standardizer:
    def fit(self, x):
        self.mean, self.std = float(x.mean()), float(x.std() + 1e-8)
        return self

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse(self, x):
        return x * self.std + self.mean


class WindowDataset(Dataset):
    def __init__(self, series, lookback, horizon):
        self.series = torch.as_tensor(series, dtype=torch.float32)
        self.lookback, self.horizon = lookback, horizon

    def __len__(self):
        return len(self.series) - self.lookback - self.horizon + 1

    def __getitem__(self, i):
        past = self.series[i:i + self.lookback].unsqueeze(-1)
        future = self.series[i + self.lookback:i + self.lookback + self.horizon].unsqueeze(-1)
        return past, future


class Seq2SeqForecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.encoder = nn.GRU(1, hidden, batch_first=True)
        self.decoder = nn.GRUCell(1, hidden)
        self.proj = nn.Linear(hidden, 1)

    def forward(self, past, horizon, future=None, tf_ratio=0.0):
        _, h = self.encoder(past)
        h = h.squeeze(0)
        step_in = torch.zeros(past.size(0), 1)  # expect: DEV006
        outputs = []
        for t in range(horizon):
            h = self.decoder(step_in, h)
            y_t = self.proj(h)
            outputs.append(y_t)
            use_truth = future is not None and random.random() < tf_ratio
            step_in = future[:, t] if use_truth else y_t
        return torch.stack(outputs, dim=1)


def make_series(n=300):
    t = np.arange(n)
    return 50 + 10 * np.sin(2 * math.pi * t / 24) + 3 * np.sin(2 * math.pi * t / 168) + np.random.randn(n)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lookback", type=int, default=24)
    parser.add_argument("--horizon", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    device = "cpu" if args.cpu or not torch.cuda.is_available() else "cuda"

    raw = make_series()
    split = int(0.8 * len(raw))
    scaler = Standardizer().fit(raw[:split])
    train_ds = WindowDataset(scaler.transform(raw[:split]), args.lookback, args.horizon)
    test_ds = WindowDataset(scaler.transform(raw[split:]), args.lookback, args.horizon)
    train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)
    test_loader = DataLoader(test_ds, batch_size=64)

    model = Seq2SeqForecaster().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    criterion = nn.MSELoss()

    for epoch in range(args.epochs):
        tf_ratio = max(0.0, 0.8 - 0.2 * epoch)
        model.train()
        for past, future in train_loader:
            past = past.to(device)
            decoder_truth = future.to(device)
            pred = model(past, args.horizon, decoder_truth, tf_ratio)
            loss = criterion(pred, future)  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} tf={tf_ratio:.1f} mse={loss.item():.4f}")

    model.eval()
    errors = []
    with torch.no_grad():
        for past, future in test_loader:
            pred = model(past.to(device), args.horizon)
            pred_orig = scaler.inverse(pred.squeeze(-1).numpy())  # expect: DEV011
            true_orig = scaler.inverse(future.squeeze(-1).numpy())
            errors.append(np.abs(pred_orig - true_orig).mean())
    print(f"test MAE (original units): {np.mean(errors):.3f}")


if __name__ == "__main__":
    main()
