"""Encoder-decoder LSTM forecaster with teacher forcing on sliding windows."""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn


class Scaler:
    def fit(self, x):
        self.mean, self.std = x.mean(), x.std() + 1e-8
        return self

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse_transform(self, x):
        return x * self.std + self.mean


def windows(series, n_in, n_out):
    xs, ys = [], []
    for i in range(len(series) - n_in - n_out):
        xs.append(series[i:i + n_in])
        ys.append(series[i + n_in:i + n_in + n_out])
    return np.stack(xs)[..., None].astype(np.float32), np.stack(ys)[..., None].astype(np.float32)


class Seq2Seq(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.encoder = nn.LSTM(1, hidden, batch_first=True)
        self.decoder = nn.LSTM(1, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, 1)

    def forward(self, src, horizon, target=None, tf_ratio=0.0):
        _, (h, c) = self.encoder(src)
        dec_in = torch.zeros(src.size(0), 1, 1)  # expect: DEV006
        outs = []
        for k in range(horizon):
            out, (h, c) = self.decoder(dec_in, (h, c))
            step = self.proj(out)
            outs.append(step)
            use_truth = target is not None and random.random() < tf_ratio
            dec_in = target[:, k:k + 1] if use_truth else step.detach()
        return torch.cat(outs, dim=1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n-in", type=int, default=24)
    p.add_argument("--horizon", type=int, default=6)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    t = np.arange(600)
    series = np.sin(t / 12) + 0.1 * np.random.randn(len(t))
    split = 480
    scaler = Scaler().fit(series[:split])
    xs, ys = windows(scaler.transform(series), args.n_in, args.horizon)
    x_tr, y_tr = torch.from_numpy(xs[:split - 40]), torch.from_numpy(ys[:split - 40])
    x_te, y_te = torch.from_numpy(xs[split:]), ys[split:]

    model = Seq2Seq().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(args.epochs):
        perm = torch.randperm(len(x_tr))
        for i in range(0, len(perm), 64):
            xb, yb = x_tr[perm[i:i + 64]].to(device), y_tr[perm[i:i + 64]].to(device)
            pred = model(xb, args.horizon, target=yb, tf_ratio=0.5)
            loss = loss_fn(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(x_te.to(device), args.horizon)
    pred_np = scaler.inverse_transform(pred.squeeze(-1).numpy())  # expect: DEV011
    true_np = scaler.inverse_transform(y_te.squeeze(-1))
    print("test MAE", round(float(np.abs(pred_np - true_np).mean()), 4))


if __name__ == "__main__":
    main()
