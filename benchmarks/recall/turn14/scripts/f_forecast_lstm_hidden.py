"""LSTM forecaster for a daily sales series, with a recursive multi-step forecast at the end."""
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

WINDOW = 28


def sales_series(n_days=730, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n_days)
    weekly = 10 * np.sin(2 * np.pi * t / 7)
    yearly = 25 * np.sin(2 * np.pi * t / 365)
    trend = 0.05 * t
    y = 100 + trend + weekly + yearly + rng.normal(0, 4, n_days)
    return (y - y.mean()) / y.std()


class WindowDataset(Dataset):
    def __init__(self, series, window=WINDOW):
        self.series = series
        self.window = window

    def __len__(self):
        return len(self.series) - self.window

    def __getitem__(self, i):
        x = self.series[i:i + self.window]
        y = self.series[i + self.window]
        return torch.from_numpy(x).float().unsqueeze(-1), torch.tensor(y, dtype=torch.float32)


class Forecaster(nn.Module):
    def __init__(self, hidden_size=64, num_layers=2, dropout=0.1):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(1, hidden_size, num_layers, batch_first=True, dropout=dropout)
        self.head = nn.Linear(hidden_size, 1)

    def init_hidden(self, batch_size):
        h0 = torch.zeros(self.num_layers, batch_size, self.hidden_size)  # expect: DEV006
        c0 = torch.zeros(self.num_layers, batch_size, self.hidden_size)  # expect: DEV006
        return h0, c0

    def forward(self, x, hidden=None):
        if hidden is None:
            hidden = self.init_hidden(x.size(0))
        out, hidden = self.lstm(x, hidden)
        return self.head(out[:, -1]).squeeze(-1), hidden


@torch.no_grad()
def recursive_forecast(model, history, steps, device):
    model.eval()
    window = torch.from_numpy(history[-WINDOW:]).to(device)
    preds = []
    for _ in range(steps):
        x = window.type(torch.FloatTensor).view(1, -1, 1)  # expect: DEV021
        y_hat, _ = model(x)
        preds.append(y_hat.item())
        window = torch.cat([window[1:], y_hat.double()])
    return np.array(preds)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    series = sales_series()
    split = len(series) - 60
    train_loader = DataLoader(WindowDataset(series[:split]), batch_size=64, shuffle=True)

    model = Forecaster().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(3):
        model.train()
        total = 0.0
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            pred, _ = model(x)
            loss = loss_fn(pred, y)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            total += loss.item() * x.size(0)
        print(f"epoch {epoch}  mse {total / len(train_loader.dataset):.4f}")

    forecast = recursive_forecast(model, series[:split], 60, device)
    mae = np.abs(forecast - series[split:]).mean()
    print(f"60-day MAE {mae:.3f}")
    plt.figure(figsize=(8, 3))
    plt.plot(np.arange(split - 120, len(series)), series[split - 120:], label="actual")
    plt.plot(np.arange(split, len(series)), forecast, label="forecast")
    plt.legend()
    plt.savefig(os.path.join(tempfile.gettempdir(), "sales_forecast.png"))


if __name__ == "__main__":
    main()
