"""Tabular regression with accelerate: EMA weights, gathered eval metrics.

    accelerate launch e_accel_ema_gather_ok.py
"""
import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


class EMA:
    def __init__(self, model, decay=0.995):
        self.decay = decay
        self.shadow = copy.deepcopy(model).eval().requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.lerp_(p.detach(), 1 - self.decay)
        for s, b in zip(self.shadow.buffers(), model.buffers()):
            s.copy_(b)


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 10, generator=g)
    y = torch.sin(x[:, 0]) + 0.5 * x[:, 1] * x[:, 2] + 0.1 * torch.randn(n, generator=g)
    return TensorDataset(x, y.unsqueeze(1))


@torch.no_grad()
def evaluate(accelerator, model, loader):
    model.eval()
    preds, targets = [], []
    sq_err = torch.zeros(1, device=accelerator.device)
    for x, y in loader:
        out = model(x)
        out, y = accelerator.gather_for_metrics((out, y))
        sq_err += ((out - y) ** 2).sum()
        preds.append(out.cpu())
        targets.append(y.cpu())
    p = torch.cat(preds).numpy().ravel()
    t = torch.cat(targets).numpy().ravel()
    r = np.corrcoef(p, t)[0, 1]
    return (sq_err / len(t)).item(), float(r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()

    accelerator = Accelerator(cpu=args.cpu)
    model = nn.Sequential(nn.Linear(10, 64), nn.GELU(), nn.LayerNorm(64), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    train_loader = DataLoader(data(2048, 0), batch_size=64, shuffle=True)
    val_loader = DataLoader(data(512, 1), batch_size=128)

    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)
    ema = EMA(accelerator.unwrap_model(model))

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            loss = F.mse_loss(model(x), y)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            ema.update(accelerator.unwrap_model(model))
        mse, r = evaluate(accelerator, model, val_loader)
        ema_mse, ema_r = evaluate(accelerator, ema.shadow, val_loader)
        accelerator.print(f"epoch {epoch}: mse {mse:.4f} (r={r:.3f})  ema mse {ema_mse:.4f} (r={ema_r:.3f})")


if __name__ == "__main__":
    main()
