"""LSTM forecaster for an hourly load series (synthetic daily + weekly seasonality).

Sliding windows of `seq_len` hours predict the next `pred_len` hours; metrics are
computed on the original scale after inverse-transforming with the train-set scaler.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class StandardScaler:
    def fit(self, data):
        self.mean = data.mean(0)
        self.std = data.std(0) + 1e-8
        return self

    def transform(self, data):
        return (data - self.mean) / self.std

    def inverse_transform(self, data):
        return data * self.std + self.mean


class WindowDataset(Dataset):
    def __init__(self, series, seq_len, pred_len):
        self.series = series.astype(np.float32)
        self.seq_len, self.pred_len = seq_len, pred_len

    def __len__(self):
        return len(self.series) - self.seq_len - self.pred_len + 1

    def __getitem__(self, i):
        x = self.series[i:i + self.seq_len]
        y = self.series[i + self.seq_len:i + self.seq_len + self.pred_len]
        return torch.from_numpy(x), torch.from_numpy(y)


class LSTMForecaster(nn.Module):
    def __init__(self, n_features=1, hidden=32, num_layers=2, pred_len=24):
        super().__init__()
        self.hidden, self.num_layers = hidden, num_layers
        self.lstm = nn.LSTM(n_features, hidden, num_layers, batch_first=True, dropout=0.1)
        self.head = nn.Linear(hidden, pred_len)

    def init_hidden(self, batch_size):
        return (torch.zeros(self.num_layers, batch_size, self.hidden), torch.zeros(self.num_layers, batch_size, self.hidden))  # expect: DEV006

    def forward(self, x):
        out, _ = self.lstm(x, self.init_hidden(x.size(0)))
        return self.head(out[:, -1]).unsqueeze(-1)


def make_series(n_hours=24 * 21, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n_hours)
    load = 50 + 10 * np.sin(2 * np.pi * t / 24) + 5 * np.sin(2 * np.pi * t / (24 * 7))
    return (load + rng.normal(0, 1.0, n_hours)).reshape(-1, 1)


def predict(model, loader, scaler, device):
    model.eval()
    preds, trues = [], []
    with torch.no_grad():
        for x, y in loader:
            out = model(x.to(device))
            preds.append(scaler.inverse_transform(out.squeeze(-1).numpy()))  # expect: DEV011
            trues.append(scaler.inverse_transform(y.squeeze(-1).numpy()))
    return np.concatenate(preds), np.concatenate(trues)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seq_len", type=int, default=48)
    ap.add_argument("--pred_len", type=int, default=24)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--use_gpu", type=int, default=1)
    args = ap.parse_args()
    device = torch.device("cuda" if args.use_gpu and torch.cuda.is_available() else "cpu")

    series = make_series()
    split = int(len(series) * 0.8)
    scaler = StandardScaler().fit(series[:split])
    train_ds = WindowDataset(scaler.transform(series[:split]), args.seq_len, args.pred_len)
    test_ds = WindowDataset(scaler.transform(series[split - args.seq_len:]), args.seq_len, args.pred_len)
    train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
    test_loader = DataLoader(test_ds, batch_size=64)

    model = LSTMForecaster(pred_len=args.pred_len).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        preds, trues = predict(model, test_loader, scaler, device)
        mae = np.abs(preds - trues).mean()
        print(f"epoch {epoch}: train mse {loss.item():.4f} test MAE {mae:.3f}")


if __name__ == "__main__":
    main()
