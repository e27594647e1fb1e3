"""Train a tabular MLP with accelerate and report validation accuracy every epoch."""
import argparse

import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_split(n, d, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
    return TensorDataset(x, y)


def evaluate(model, loader, accelerator):
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)  # expect: DEV002
            preds = logits.argmax(dim=-1)
            preds, refs = accelerator.gather_for_metrics((preds, y))
            correct += (preds == refs).sum().item()
            total += refs.numel()
    model.train()
    return correct / max(total, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--mixed_precision", default="no")
    args = parser.parse_args()

    accelerator = Accelerator(mixed_precision=args.mixed_precision)
    train_loader = DataLoader(make_split(256, 8, 0), batch_size=32, shuffle=True)
    val_loader = DataLoader(make_split(64, 8, 1), batch_size=32)

    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)

    for epoch in range(args.epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
        acc = evaluate(model, val_loader, accelerator)
        accelerator.print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.3f}")


if __name__ == "__main__":
    main()
