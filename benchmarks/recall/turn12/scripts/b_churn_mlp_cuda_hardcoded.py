"""Customer-churn MLP quick-start: python b_churn_mlp_cuda_hardcoded.py --epochs 10

Written from "AssertionError: Torch not compiled with CUDA enabled"
(sunset1995/HorizonNet#38 and pytorch/pytorch#50401, scripts that laptops
without an NVIDIA GPU cannot run) and "make sure model on target device"
(mrdbourke/pytorch-deep-learning#369, where the model move ended up inside the
per-epoch step): the device is hard-coded to CUDA with no CPU fallback, and the
model is re-sent to the device at the start of every epoch.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split


def synthetic_churn(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    tenure = rng.integers(1, 72, n)
    monthly = rng.normal(70, 20, n)
    tickets = rng.poisson(1.5, n)
    contract = rng.integers(0, 3, n)
    logit = -0.04 * tenure + 0.02 * (monthly - 70) + 0.5 * tickets - 0.8 * contract + 0.5
    churn = rng.random(n) < 1 / (1 + np.exp(-logit))
    feats = np.stack([tenure / 72, (monthly - 70) / 20, tickets / 5, contract == 0, contract == 1, contract == 2], 1)
    return TensorDataset(torch.tensor(feats, dtype=torch.float32), torch.tensor(churn, dtype=torch.float32))


class ChurnMLP(nn.Module):
    def __init__(self, in_dim=6, hidden=32, p=0.2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(p), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    parser = argparse.ArgumentParser(description="Train a churn classifier on synthetic data")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()

    torch.manual_seed(0)
    device = torch.device("cuda")  # expect: DEV001
    dataset = synthetic_churn()
    train_set, val_set = random_split(dataset, [2400, 600], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=256)

    model = ChurnMLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(args.epochs):
        model.to(device)  # expect: DEV007
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        correct = total = 0
        with torch.no_grad():
            for xb, yb in val_loader:
                xb, yb = xb.to(device), yb.to(device)
                correct += ((model(xb) > 0).float() == yb).sum().item()
                total += yb.numel()
        print(f"epoch {epoch:2d} loss {loss.item():.4f} val acc {correct / total:.3f}")

    torch.save(model.state_dict(), "churn_mlp.pt")


if __name__ == "__main__":
    main()
