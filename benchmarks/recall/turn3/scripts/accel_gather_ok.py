"""Regression with accelerate: gathered predictions moved to the host before numpy, every loader prepared."""
import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from scipy.stats import pearsonr
from torch.utils.data import DataLoader, TensorDataset


def make_loaders(n=2048, dim=32):
    x = torch.randn(n, dim)
    y = x[:, :4].sum(1, keepdim=True) + 0.1 * torch.randn(n, 1)
    split = int(0.8 * n)
    return (DataLoader(TensorDataset(x[:split], y[:split]), batch_size=64, shuffle=True),
            DataLoader(TensorDataset(x[split:], y[split:]), batch_size=256))


def main():
    accelerator = Accelerator()
    train_loader, val_loader = make_loaders()
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)
    for epoch in range(3):
        model.train()
        for x, y in train_loader:
            loss = nn.functional.mse_loss(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        preds, targets = [], []
        for x, y in val_loader:
            with torch.no_grad():
                out = model(x)
            out, y = accelerator.gather_for_metrics((out, y))
            preds.append(out.squeeze(-1).cpu().numpy())
            targets.append(y.squeeze(-1).cpu().numpy())
        r, _ = pearsonr(np.concatenate(preds), np.concatenate(targets))
        accelerator.print(f"epoch {epoch}: pearson {r:.3f}")


if __name__ == "__main__":
    main()
