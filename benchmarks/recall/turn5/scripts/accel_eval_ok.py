"""accelerate training with an EMA copy and torchmetrics done right: the EMA is taken from the
unwrapped, prepared model, the metric is moved to accelerator.device, gathered predictions are
brought to the host before NumPy."""
import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassF1Score


class MLP(nn.Module):
    def __init__(self, d_in=20, classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.GELU(), nn.Linear(64, classes))

    def forward(self, x):
        return self.net(x)


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    y = (x[:, :5].argmax(1))
    return TensorDataset(x, y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    accelerator = Accelerator()
    model = MLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    train_loader = DataLoader(data(2048, 0), batch_size=64, shuffle=True)
    val_loader = DataLoader(data(256, 1), batch_size=64)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)
    ema = copy.deepcopy(accelerator.unwrap_model(model)).eval()
    f1 = MulticlassF1Score(num_classes=5, average="macro").to(accelerator.device)

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            with torch.no_grad():
                for e, p in zip(ema.parameters(), accelerator.unwrap_model(model).parameters()):
                    e.lerp_(p, 0.01)
        preds, labels = [], []
        with torch.no_grad():
            for x, y in val_loader:
                pred = ema(x).argmax(-1)
                pred, y = accelerator.gather_for_metrics((pred, y))
                f1.update(pred, y)
                preds.append(pred.cpu())
                labels.append(y.cpu())
        confusion = np.zeros((5, 5), dtype=int)
        np.add.at(confusion, (torch.cat(labels).numpy(), torch.cat(preds).numpy()), 1)
        accelerator.print(f"epoch {epoch}: f1 {f1.compute().item():.3f}\n{confusion}")
        f1.reset()


if __name__ == "__main__":
    main()
