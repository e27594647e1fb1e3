"""Test-set evaluation of a churn model: logits are collected batch by batch and turned into
probabilities for a threshold sweep at the end."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader, device):
    model.eval()
    logits, labels = [], []
    with torch.no_grad():
        for x, y in loader:
            logits.append(model(x.to(device)))
            labels.append(y)
    probs = torch.cat(logits).softmax(-1)[:, 1].numpy()  # expect: DEV011
    y = torch.cat(labels).numpy()
    for thr in np.linspace(0.1, 0.9, 5):
        print(f"thr={thr:.1f} recall={np.mean(probs[y == 1] > thr):.3f}")


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(500, 14)
    y = (x[:, 0] + x[:, 3] > 0.5).long()
    model = nn.Sequential(nn.Linear(14, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    train = DataLoader(TensorDataset(x[:400], y[:400]), batch_size=40, shuffle=True)
    for xb, yb in train:
        loss = nn.functional.cross_entropy(model(xb.to(device)), yb.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    evaluate(model, DataLoader(TensorDataset(x[400:], y[400:]), batch_size=50), device)


if __name__ == "__main__":
    main()
