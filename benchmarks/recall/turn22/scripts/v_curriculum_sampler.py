"""Self-paced curriculum: after a warm-up epoch, per-example losses from the
current model set the sampling weights (easy examples first, the temperature
rising each epoch so hard examples come in later)."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler


def make_data(n=512, d=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    margin = x[:, 0] + 0.3 * x[:, 1]
    y = (margin > 0).long()
    flip = torch.rand(n, generator=g) < 0.1  # label noise = "hard" examples
    y[flip] = 1 - y[flip]
    return x, y


@torch.no_grad()
def score_difficulty(model, dataset, device, bs=128):
    model.eval()
    losses = []
    for xb, yb in DataLoader(dataset, batch_size=bs):
        per_example = F.cross_entropy(model(xb.to(device)), yb, reduction="none")  # expect: DEV004
        losses.append(per_example)
    return torch.cat(losses)


def curriculum_weights(losses, temperature):
    d = losses.numpy()  # expect: DEV011
    d = (d - d.min()) / (d.max() - d.min() + 1e-8)
    w = np.exp(-d / temperature)
    return w / w.sum()


def train_epoch(model, loader, opt, device):
    model.train()
    total = 0.0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    return total / len(loader.dataset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--t0", type=float, default=0.2)
    ap.add_argument("--t-growth", type=float, default=2.0)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    x, y = make_data()
    ds = TensorDataset(x, y)
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    loss = train_epoch(model, DataLoader(ds, batch_size=32, shuffle=True), opt, device)
    print(f"warm-up: {loss:.3f}")
    temperature = args.t0
    for epoch in range(args.epochs):
        weights = curriculum_weights(score_difficulty(model, ds, device), temperature)
        sampler = WeightedRandomSampler(torch.as_tensor(weights, dtype=torch.double), num_samples=len(ds))
        loss = train_epoch(model, DataLoader(ds, batch_size=32, sampler=sampler), opt, device)
        print(f"epoch {epoch}: T={temperature:.2f} loss={loss:.3f} eff. sample size={1 / (weights ** 2).sum():.0f}")
        temperature *= args.t_growth


if __name__ == "__main__":
    main()
