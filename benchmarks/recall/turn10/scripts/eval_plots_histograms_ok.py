"""Correct look-alike: evaluation code that collects device outputs in lists and converts them
later, each time after bringing them to the host: the PCA projection is moved with .cpu() before
the scatter plot, the absolute errors before np.histogram, and the per-batch losses are kept as
Python floats with .item() before plt.plot.

Thread: https://github.com/d2l-ai/d2l-en/pull/1966 (explicitly move to cpu before plotting).
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x_all = torch.randn(1200, 30)
    y_all = x_all[:, :5].sum(1)
    train = DataLoader(TensorDataset(x_all[:1000], y_all[:1000]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(x_all[1000:], y_all[1000:]), batch_size=64)
    body = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 16)).to(device)
    head = nn.Linear(16, 1).to(device)
    opt = torch.optim.Adam([*body.parameters(), *head.parameters()], lr=1e-3)
    losses = []
    for epoch in range(3):
        for x, y in train:
            x, y = x.to(device), y.to(device)
            loss = F.mse_loss(head(body(x)).squeeze(-1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    embs, errs = [], []
    with torch.no_grad():
        for x, y in val:
            x, y = x.to(device), y.to(device)
            e = body(x)
            embs.append(e)
            errs.append((head(e).squeeze(-1) - y).abs())
    emb = torch.cat(embs)
    centered = emb - emb.mean(0)
    _, _, v = torch.pca_lowrank(centered, q=2)
    proj = (centered @ v[:, :2]).cpu()
    counts, edges = np.histogram(torch.cat(errs).cpu().numpy(), bins=20)
    fig, axes = plt.subplots(1, 3, figsize=(12, 4))
    axes[0].plot(losses)
    axes[1].scatter(proj[:, 0], proj[:, 1], s=6)
    axes[2].stairs(counts, edges)
    fig.savefig("val_report.png")


if __name__ == "__main__":
    main()
