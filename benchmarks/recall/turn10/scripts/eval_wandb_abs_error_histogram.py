"""Regression validation that logs to Weights & Biases: the absolute errors of every batch are
collected on the device and their histogram is computed with NumPy for wandb.Histogram.

Thread: https://github.com/wandb/wandb/issues/2946 (histograms go through np.histogram, so they do
not work with CUDA tensors).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import wandb
from torch.utils.data import DataLoader, TensorDataset


def make_loader(n, shuffle):
    x = torch.rand(n, 8)
    y = (x ** 2).sum(1) + 0.05 * torch.randn(n)
    return DataLoader(TensorDataset(x, y), batch_size=64, shuffle=shuffle)


def validate(model, loader, device, step):
    model.eval()
    errors = []
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            errors.append((model(x).squeeze(-1) - y).abs())
    errors = torch.cat(errors)
    counts, edges = np.histogram(errors, bins=20)  # expect: DEV011
    wandb.log({"val/mae": errors.mean().item(),
               "val/abs_error": wandb.Histogram(np_histogram=(counts, edges))}, step=step)
    model.train()


def main():
    wandb.init(project="device-demo", mode="offline")
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    train, val = make_loader(2048, True), make_loader(256, False)
    step = 0
    for epoch in range(3):
        for x, y in train:
            x, y = x.to(device), y.to(device)
            loss = F.mse_loss(model(x).squeeze(-1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        validate(model, val, device, step)
    wandb.finish()


if __name__ == "__main__":
    main()
