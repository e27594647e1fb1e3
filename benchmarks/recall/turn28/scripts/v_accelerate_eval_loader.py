"""Tabular classifier trained with accelerate; a per-class confusion matrix at
the end of every epoch."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_data(n, d, c, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, c, generator=g)
    return TensorDataset(x, (x @ w).argmax(1))


class MLP(nn.Module):
    def __init__(self, d, c):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, c))

    def forward(self, x):
        return self.net(x)


def evaluate(model, loader, n_classes, accelerator):
    model.eval()
    confusion = torch.zeros(n_classes, n_classes, dtype=torch.long, device="cuda")  # expect: DEV001
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)  # expect: DEV002
            preds, refs = accelerator.gather_for_metrics((logits.argmax(-1), y))
            idx = refs * n_classes + preds
            confusion += torch.bincount(idx, minlength=n_classes * n_classes).view(n_classes, n_classes)
    model.train()
    return confusion


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--mixed-precision", default="no")
    args = parser.parse_args()

    accelerator = Accelerator(mixed_precision=args.mixed_precision)
    d, c = 16, 4
    train_loader = DataLoader(make_data(512, d, c, 0), batch_size=32, shuffle=True)
    eval_loader = DataLoader(make_data(128, d, c, 1), batch_size=64)

    model = MLP(d, c)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=3e-3, total_steps=args.epochs * len(train_loader))
    model, optimizer, train_loader, scheduler = accelerator.prepare(model, optimizer, train_loader, scheduler)

    for epoch in range(args.epochs):
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
        confusion = evaluate(model, eval_loader, c, accelerator)
        acc = confusion.diag().sum().item() / confusion.sum().item()
        accelerator.print(f"epoch {epoch}: loss {loss.item():.3f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
