"""Evaluation loop that averages per-batch accuracies with NumPy."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader, device):
    model.eval()
    batch_acc = []
    with torch.no_grad():
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            pred = model(xb).argmax(dim=1)
            batch_acc.append((pred == yb).float().mean())
    return float(np.mean(batch_acc))  # expect: DEV011


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10)).to(device)
    ds = TensorDataset(torch.rand(256, 1, 28, 28), torch.randint(0, 10, (256,)))
    print(evaluate(model, DataLoader(ds, batch_size=64), device))
