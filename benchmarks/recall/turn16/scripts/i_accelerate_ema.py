"""Regression with accelerate and an exponential moving average of the weights;
validation runs on the EMA weights and predictions are collected for a report.
"""
import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 8, generator=g) * 4 - 2
    y = torch.sin(x[:, :1] * 2) + 0.5 * x[:, 1:2] ** 2 - x[:, 2:3] + 0.05 * torch.randn(n, 1, generator=g)
    return TensorDataset(x, y)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(), nn.Linear(128, 1))

    def forward(self, x):
        return self.net(x)


@torch.no_grad()
def ema_update(ema, online, decay):
    for e, p in zip(ema.parameters(), online.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1.0 - decay)
    for eb, b in zip(ema.buffers(), online.buffers()):
        eb.copy_(b)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--ema-decay", type=float, default=0.99)
    args = p.parse_args()

    accelerator = Accelerator()
    torch.manual_seed(0)
    train_dl = DataLoader(make_data(1024, 0), batch_size=64, shuffle=True)
    val_dl = DataLoader(make_data(256, 1), batch_size=128)

    model = Regressor()
    ema_model = copy.deepcopy(model)  # expect: DEV016
    ema_model.requires_grad_(False)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_dl:
            loss = F.mse_loss(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            ema_update(ema_model, accelerator.unwrap_model(model), args.ema_decay)

        ema_model.eval()
        preds, targets = [], []
        with torch.no_grad():
            for x, y in val_dl:
                out = ema_model(x)
                out, y = accelerator.gather_for_metrics((out, y))
                preds.append(out.numpy())  # expect: DEV011
                targets.append(y.cpu().numpy())
        preds, targets = np.concatenate(preds), np.concatenate(targets)
        rmse = float(np.sqrt(np.mean((preds - targets) ** 2)))
        accelerator.print(f"epoch {epoch}: train loss {loss.item():.4f}  ema val rmse {rmse:.4f}")


if __name__ == "__main__":
    main()
