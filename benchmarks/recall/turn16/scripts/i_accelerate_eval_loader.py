"""Tabular classifier trained with accelerate; torchmetrics accuracy during
training, gather_for_metrics for the evaluation accuracy.

    accelerate launch i_accelerate_eval_loader.py
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, Dataset
from torchmetrics.classification import MulticlassAccuracy


class Blobs(Dataset):
    def __init__(self, n, num_classes=3, dim=10, seed=0):
        g = torch.Generator().manual_seed(seed)
        centers = torch.randn(num_classes, dim, generator=g) * 3
        self.y = torch.randint(0, num_classes, (n,), generator=g)
        self.x = centers[self.y] + torch.randn(n, dim, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"features": self.x[i], "labels": self.y[i]}


class MLP(nn.Module):
    def __init__(self, dim, num_classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, num_classes))

    def forward(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--mixed-precision", default="no")
    args = parser.parse_args()

    accelerator = Accelerator(mixed_precision=args.mixed_precision)
    set_seed(0)
    num_classes = 3
    train_dl = DataLoader(Blobs(512, num_classes, seed=0), batch_size=args.batch_size, shuffle=True)
    eval_dl = DataLoader(Blobs(128, num_classes, seed=1), batch_size=64)

    model = MLP(10, num_classes)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    train_acc = MulticlassAccuracy(num_classes=num_classes)  # expect: DEV019

    model, optimizer, train_dl = accelerator.prepare(model, optimizer, train_dl)

    for epoch in range(args.epochs):
        model.train()
        train_acc.reset()
        for batch in train_dl:
            logits = model(batch["features"])
            loss = F.cross_entropy(logits, batch["labels"])
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            train_acc.update(logits.argmax(-1), batch["labels"])

        model.eval()
        correct, total = 0, 0
        for batch in eval_dl:
            with torch.no_grad():
                logits = model(batch["features"])  # expect: DEV002
            preds, refs = accelerator.gather_for_metrics((logits.argmax(-1), batch["labels"]))
            correct += (preds == refs).sum().item()  # also: DEV004
            total += refs.numel()
        accelerator.print(
            f"epoch {epoch}: train acc {train_acc.compute().item():.3f}  eval acc {correct / total:.3f}"
        )


if __name__ == "__main__":
    main()
