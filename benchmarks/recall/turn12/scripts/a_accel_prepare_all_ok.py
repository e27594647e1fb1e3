"""Correct look-alike: accelerate training with an EMA copy, a replaced head and a
torchmetrics metric -- the head is swapped before prepare, both loaders are
prepared, the EMA copy is taken from the prepared model, the metric is moved to
accelerator.device and gathered tensors go through .cpu() before NumPy.

Written against "gather_for_metrics wrongly computes metrics in distributed
setup", "how to use evaluate with accelerate", "[Examples] Make sure EMA works
with any device" and "Metrics not on same device as Trainer/model".
"""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy


def toy_set(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 24, generator=g)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    return TensorDataset(x, y)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        return self.head(self.body(x))


@torch.no_grad()
def ema_update(ema, model, decay=0.99):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1.0 - decay)


def main():
    accelerator = Accelerator()
    model = Backbone()
    model.head = nn.Linear(64, 3)  # new label space, set before anything is placed
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    train_loader = DataLoader(toy_set(512, 0), batch_size=64, shuffle=True)
    val_loader = DataLoader(toy_set(128, 1), batch_size=64)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)

    ema = copy.deepcopy(accelerator.unwrap_model(model)).eval().requires_grad_(False)
    val_acc = MulticlassAccuracy(num_classes=3).to(accelerator.device)

    for epoch in range(3):
        model.train()
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            ema_update(ema, accelerator.unwrap_model(model))

        preds_all, labels_all = [], []
        with torch.no_grad():
            for x, y in val_loader:
                preds = ema(x).argmax(dim=-1)
                preds, y = accelerator.gather_for_metrics((preds, y))
                val_acc.update(preds, y)
                preds_all.append(preds.cpu().numpy())
                labels_all.append(y.cpu().numpy())
        preds_np, labels_np = np.concatenate(preds_all), np.concatenate(labels_all)
        confusion = np.zeros((3, 3), dtype=int)
        np.add.at(confusion, (labels_np, preds_np), 1)
        accelerator.print(f"epoch {epoch} loss {loss.item():.3f} ema acc {val_acc.compute().item():.3f}")
        accelerator.print(confusion)
        val_acc.reset()


if __name__ == "__main__":
    main()
