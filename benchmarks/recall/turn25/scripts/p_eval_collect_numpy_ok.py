"""Evaluate a churn model: gather logits over the validation loader, then a
calibration table (expected calibration error) and a lift curve with NumPy.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def synthetic(n, d=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.linspace(-1, 1, d)
    y = (torch.sigmoid(x @ w + 0.3 * torch.randn(n, generator=g)) > 0.5).float()
    return TensorDataset(x, y)


def expected_calibration_error(probs, labels, bins=10):
    edges = np.linspace(0, 1, bins + 1)
    ece = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (probs >= lo) & (probs < hi)
        if sel.any():
            ece += sel.mean() * abs(probs[sel].mean() - labels[sel].mean())
    return ece


@torch.no_grad()
def collect(model, loader, device):
    model.eval()
    probs, labels = [], []
    for x, y in loader:
        logits = model(x.to(device)).squeeze(-1)
        probs.append(torch.sigmoid(logits).detach().cpu())
        labels.append(y)
    return torch.cat(probs).numpy(), torch.cat(labels).numpy()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(args.epochs):
        for x, y in DataLoader(synthetic(512), batch_size=64, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(-1), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    probs, labels = collect(model, DataLoader(synthetic(400, seed=5), batch_size=128), device)
    print(f"ECE {expected_calibration_error(probs, labels):.4f}")
    order = np.argsort(-probs)
    base = labels.mean()
    for frac in (0.1, 0.2, 0.5):
        k = int(frac * len(order))
        print(f"lift@{int(frac * 100)}%: {labels[order[:k]].mean() / base:.2f}")


if __name__ == "__main__":
    main()
