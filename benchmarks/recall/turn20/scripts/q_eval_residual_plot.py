"""Regression eval: collect predictions over the test set and plot residuals."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_data(n=400):
    x = torch.rand(n, 3) * 4 - 2
    y = (torch.sin(x[:, 0]) + 0.3 * x[:, 1] ** 2 - x[:, 2]).unsqueeze(1) + 0.05 * torch.randn(n, 1)
    return TensorDataset(x, y)


def collect(model, loader, device):
    model.eval()
    preds, targets = [], []
    with torch.no_grad():
        for xb, yb in loader:
            preds.append(model(xb.to(device)).squeeze(1))
            targets.append(yb.squeeze(1))
    return preds, targets


def plot_residuals(preds, targets, path="residuals.png"):
    p = torch.cat(preds).numpy()  # expect: DEV011
    t = torch.cat(targets).numpy()
    fig, ax = plt.subplots(1, 2, figsize=(8, 3))
    ax[0].scatter(t, p, s=4)
    ax[0].set_xlabel("target")
    ax[0].set_ylabel("prediction")
    ax[1].hist(p - t, bins=30)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return float(np.sqrt(np.mean((p - t) ** 2)))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_dl = DataLoader(build_data(), batch_size=32, shuffle=True)
    test_dl = DataLoader(build_data(100), batch_size=50)
    model = nn.Sequential(nn.Linear(3, 64), nn.Tanh(), nn.Linear(64, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for xb, yb in train_dl:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    preds, targets = collect(model, test_dl, device)
    print("rmse", plot_residuals(preds, targets))


if __name__ == "__main__":
    main()
