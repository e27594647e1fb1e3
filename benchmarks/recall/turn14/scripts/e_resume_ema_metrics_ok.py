"""Churn model trainer with resume, an EMA copy for evaluation and torchmetrics.

    python e_resume_ema_metrics_ok.py --epochs 2
    python e_resume_ema_metrics_ok.py --epochs 4 --resume
"""
import argparse
import copy
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics import MetricCollection
from torchmetrics.classification import BinaryAUROC, BinaryAveragePrecision

CKPT = os.path.join(tempfile.gettempdir(), "e_churn_ckpt.pt")


def loaders(seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(3000, 24, generator=g)
    logit = x[:, 0] - 0.5 * x[:, 1] + 0.3 * x[:, 2] * x[:, 3] - 1.5
    y = (torch.rand(3000, generator=g) < torch.sigmoid(logit)).float()
    train = TensorDataset(x[:2400], y[:2400])
    val = TensorDataset(x[2400:], y[2400:])
    return DataLoader(train, batch_size=128, shuffle=True), DataLoader(val, batch_size=512)


class ChurnNet(nn.Module):
    def __init__(self, d_in=24):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


@torch.no_grad()
def ema_step(ema, model, decay=0.99):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p, alpha=1 - decay)
    for e, b in zip(ema.buffers(), model.buffers()):
        e.copy_(b)


@torch.no_grad()
def evaluate(net, loader, metrics, device):
    net.eval()
    metrics.reset()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        metrics.update(torch.sigmoid(net(x)), y.long())
    return {k: round(v.item(), 4) for k, v in metrics.compute().items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = ChurnNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    start_epoch = 0
    if args.resume and os.path.exists(CKPT):
        ckpt = torch.load(CKPT, map_location=device)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start_epoch = ckpt["epoch"] + 1
    ema = copy.deepcopy(model).requires_grad_(False)
    metrics = MetricCollection({"auroc": BinaryAUROC(), "ap": BinaryAveragePrecision()}).to(device)

    train_loader, val_loader = loaders()
    for epoch in range(start_epoch, args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.binary_cross_entropy_with_logits(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema_step(ema, model)
        print(f"epoch {epoch}", "model", evaluate(model, val_loader, metrics, device),
              "ema", evaluate(ema, val_loader, metrics, device))
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, CKPT)


if __name__ == "__main__":
    main()
