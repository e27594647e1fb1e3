"""Metrics done right: torchmetrics moved with .to(device), a custom metric module moved too, and a metric
that stays on the CPU fed with .cpu() tensors."""
import torch
import torch.nn as nn
from torchmetrics import MeanSquaredError
from torchmetrics.regression import PearsonCorrCoef


class RunningMAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("total", torch.zeros(()))
        self.register_buffer("count", torch.zeros(()))

    def update(self, pred, target):
        self.total += (pred - target).abs().sum()
        self.count += target.numel()

    def compute(self):
        return self.total / self.count


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(10, 1).to(device)
    mse = MeanSquaredError().to(device)
    mae = RunningMAE().to(device)
    pearson = PearsonCorrCoef()
    for _ in range(5):
        x = torch.randn(64, 10, device=device)
        y = x.sum(1, keepdim=True)
        with torch.no_grad():
            pred = model(x)
        mse.update(pred, y)
        mae.update(pred, y)
        pearson.update(pred.squeeze(1).cpu(), y.squeeze(1).cpu())
    print(mse.compute().item(), mae.compute().item(), pearson.compute().item())
