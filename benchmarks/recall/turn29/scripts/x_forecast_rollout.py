"""LSTM forecaster on a noisy seasonal series: sliding windows, a standard scaler, and an
autoregressive rollout that feeds each prediction back into the input window."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class StandardScaler:
    def fit(self, x):
        self.mean, self.std = x.mean(), x.std() + 1e-8
        return self

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse_transform(self, x):
        return np.asarray(x) * self.std + self.mean


class Windows(Dataset):
    def __init__(self, series, lookback):
        self.x = series.astype(np.float32)
        self.lookback = lookback

    def __len__(self):
        return len(self.x) - self.lookback

    def __getitem__(self, i):
        w = self.x[i:i + self.lookback]
        y = self.x[i + self.lookback]
        return torch.from_numpy(w).unsqueeze(-1), torch.tensor([y])


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lookback", type=int, default=24)
    ap.add_argument("--horizon", type=int, default=12)
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

    t = np.arange(400)
    series = 10 + 3 * np.sin(2 * np.pi * t / 24) + 0.3 * np.random.default_rng(0).standard_normal(400)
    train, test = series[:340], series[340:]
    scaler = StandardScaler().fit(train)
    scaled = scaler.transform(train)

    loader = DataLoader(Windows(scaled, args.lookback), batch_size=32, shuffle=True)
    model = Forecaster().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} mse {loss.item():.4f}")

    model.eval()
    window = torch.from_numpy(scaled[-args.lookback:].astype(np.float32)).view(1, -1, 1)  # expect: DEV006
    steps = []
    with torch.no_grad():
        for _ in range(args.horizon):
            nxt = model(window)
            steps.append(nxt)
            window = torch.cat([window[:, 1:], nxt.view(1, 1, 1)], dim=1)
    forecast = torch.cat(steps).view(-1)
    forecast = scaler.inverse_transform(forecast.numpy())  # expect: DEV011
    mae = np.abs(forecast - test[:args.horizon]).mean()
    print(f"{args.horizon}-step MAE: {mae:.3f}")


if __name__ == "__main__":
    main()
