"""Quantile regression (10th/50th/90th percentiles) trained with accelerate; evaluation gathers the
predicted quantiles across processes and measures the empirical coverage of the 80% interval.

Thread: https://github.com/neuro-ml/thunder/issues/49 (np.asarray over collected predictions:
TypeError: can't convert cuda:0 device type tensor to numpy).
"""
import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

QUANTILES = (0.1, 0.5, 0.9)


def pinball(pred, y):
    q = torch.tensor(QUANTILES, device=pred.device)
    err = y[:, None] - pred
    return torch.maximum(q * err, (q - 1) * err).mean()


def make_data(n):
    x = torch.rand(n, 4)
    y = x.sum(1) + 0.3 * torch.randn(n) * (1 + x[:, 0])
    return TensorDataset(x, y)


def main():
    accelerator = Accelerator()
    model = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, len(QUANTILES)))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    train = DataLoader(make_data(1024), batch_size=64, shuffle=True)
    val = DataLoader(make_data(256), batch_size=64)
    model, opt, train, val = accelerator.prepare(model, opt, train, val)
    for epoch in range(3):
        for x, y in train:
            loss = pinball(model(x), y)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
    model.eval()
    preds, targets = [], []
    for x, y in val:
        with torch.no_grad():
            out = model(x)
        out, y = accelerator.gather_for_metrics((out, y))
        preds.append(out)
        targets.append(y)
    q = np.concatenate([p.numpy() for p in preds])  # expect: DEV011
    t = np.concatenate([y.cpu().numpy() for y in targets])
    coverage = np.mean((t >= q[:, 0]) & (t <= q[:, 2]))
    accelerator.print(f"80% interval coverage: {coverage:.3f}")


if __name__ == "__main__":
    main()
