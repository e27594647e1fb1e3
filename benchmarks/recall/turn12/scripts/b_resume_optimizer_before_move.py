"""Tabular regression with epoch checkpoints and automatic resume.

Written from "optimizer load_state_dict() problem?" (pytorch/pytorch#2830),
"Cannot resume training while using adam optimizer" (apache/mxnet#5428, the same
CPU-state/GPU-weight clash) and "RuntimeError: CUDA error: invalid device
ordinal" (LuyaooChen/uninformed-students-pytorch#3, a script pinned to the
second GPU): the optimizer state is restored while the model still sits on the
CPU, and the device is the second GPU whenever CUDA is available.
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self, in_dim=6, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def housing_like(n=2000, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 6, generator=g)
    y = 3 * x[:, 0] + 2 * x[:, 1] ** 2 - x[:, 2] * x[:, 3] + 0.1 * torch.randn(n, generator=g)
    return TensorDataset(x, y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--ckpt", default="regressor_last.pt")
    args = parser.parse_args()

    torch.manual_seed(0)
    device = torch.device("cuda", 1) if torch.cuda.is_available() else torch.device("cpu")  # expect: DEV018
    train_loader = DataLoader(housing_like(), batch_size=128, shuffle=True)

    model = Regressor()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    start_epoch = 0
    if os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        scheduler.load_state_dict(ckpt["scheduler"])
        start_epoch = ckpt["epoch"] + 1
        print(f"resuming from epoch {start_epoch}")
    model.to(device)

    for epoch in range(start_epoch, args.epochs):
        model.train()
        total, count = 0.0, 0
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * xb.size(0)
            count += xb.size(0)
        scheduler.step()
        print(f"epoch {epoch} mse {total / count:.4f} lr {scheduler.get_last_lr()[0]:.5f}")
        torch.save({
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "epoch": epoch,
        }, args.ckpt)


if __name__ == "__main__":
    main()
