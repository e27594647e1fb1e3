"""Multi-step forecasting of a noisy seasonal series: sliding windows, a standard
scaler kept as buffers, GRU encoder-decoder trained with teacher forcing.
"""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

LOOKBACK, HORIZON = 24, 6


class Windows(Dataset):
    def __init__(self, series, lookback, horizon):
        self.s, self.lb, self.h = series, lookback, horizon

    def __len__(self):
        return len(self.s) - self.lb - self.h + 1

    def __getitem__(self, i):
        x = self.s[i:i + self.lb].unsqueeze(-1)
        y = self.s[i + self.lb:i + self.lb + self.h].unsqueeze(-1)
        return x, y


class Scaler(nn.Module):
    def __init__(self, train_values):
        super().__init__()
        self.register_buffer("mean", train_values.mean())
        self.register_buffer("std", train_values.std())

    def forward(self, x):
        return (x - self.mean) / self.std

    def inverse(self, x):
        return x * self.std + self.mean


class Seq2Seq(nn.Module):
    def __init__(self, scaler, hidden=32):
        super().__init__()
        self.scaler = scaler
        self.encoder = nn.GRU(1, hidden, batch_first=True)
        self.decoder = nn.GRUCell(1, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, y=None, teacher_forcing=0.5):
        x = self.scaler(x)
        _, h = self.encoder(x)
        h = h[0]
        step_in = x[:, -1]
        preds = []
        for t in range(HORIZON):
            h = self.decoder(step_in, h)
            p = self.out(h)
            preds.append(p)
            use_truth = y is not None and random.random() < teacher_forcing
            step_in = self.scaler(y[:, t]) if use_truth else p
        return self.scaler.inverse(torch.stack(preds, 1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0); random.seed(0)
    t = torch.arange(400, dtype=torch.float32)
    series = 10 + 3 * torch.sin(2 * math.pi * t / 24) + 0.3 * torch.randn(400)
    train_s, val_s = series[:320], series[320:]
    train_loader = DataLoader(Windows(train_s, LOOKBACK, HORIZON), batch_size=32, shuffle=True)
    val_loader = DataLoader(Windows(val_s, LOOKBACK, HORIZON), batch_size=32)

    model = Seq2Seq(Scaler(train_s)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)

    xb, yb = next(iter(train_loader))
    xb, yb = xb.to(device), yb.to(device)  # expect: DEV003
    with torch.no_grad():
        print("untrained batch MSE", F.mse_loss(model(xb), yb).item())

    for epoch in range(3):
        model.train()
        tf = max(0.0, 0.6 - 0.2 * epoch)
        for xb, yb in train_loader:
            pred = model(xb, yb, teacher_forcing=tf)  # also: DEV002
            loss = F.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()

        model.eval()
        total, count = 0.0, 0
        with torch.no_grad():
            for xb, yb in val_loader:
                xb = xb.to(device)
                yb.to(device)  # expect: DEV005
                pred = model(xb)
                total += F.mse_loss(pred, yb, reduction="sum").item()  # also: DEV004
                count += yb.numel()
        print(f"epoch {epoch} tf={tf:.1f} val MSE {total / count:.4f}")


if __name__ == "__main__":
    main()
