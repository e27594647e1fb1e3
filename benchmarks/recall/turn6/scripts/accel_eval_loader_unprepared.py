"""Tabular regression with accelerate: the training loader goes through prepare, the
validation loader built later for early stopping does not."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    y = x[:, :3].sum(1, keepdim=True) + 0.1 * torch.randn(n, 1, generator=g)
    return TensorDataset(x, y)


def main():
    accelerator = Accelerator()
    model = nn.Sequential(nn.Linear(12, 64), nn.GELU(), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    train_loader = DataLoader(make_split(1024, 0), batch_size=64, shuffle=True)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    val_loader = DataLoader(make_split(256, 1), batch_size=128)

    best, patience = float("inf"), 0
    for epoch in range(20):
        model.train()
        for xb, yb in train_loader:
            loss = F.mse_loss(model(xb), yb)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        total = 0.0
        with torch.no_grad():
            for xb, yb in val_loader:
                pred = model(xb)  # expect: DEV002
                total += F.mse_loss(pred, yb, reduction="sum").item()  # also: DEV004 (correction, session 34)
        val = total / len(val_loader.dataset)
        accelerator.print(f"epoch {epoch} val_mse {val:.4f}")
        if val < best - 1e-4:
            best, patience = val, 0
        else:
            patience += 1
            if patience == 3:
                break


if __name__ == "__main__":
    main()
