"""Tabular churn classifier trained with accelerate; both loaders go through prepare()."""
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from accelerate import Accelerator
from torch import nn
from torch.utils.data import DataLoader, Dataset


class ChurnDataset(Dataset):
    def __init__(self, n, n_features, seed):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(size=(n, n_features)).astype(np.float32)
        w = np.random.default_rng(1234).normal(size=(n_features,))  # same rule for every split
        self.y = (self.x @ w + 0.3 * rng.normal(size=n) > 0).astype(np.int64)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"features": torch.from_numpy(self.x[i]), "label": torch.tensor(self.y[i])}


class MLP(nn.Module):
    def __init__(self, d_in, hidden=64, n_classes=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.GELU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--mixed-precision", default="no")
    args = p.parse_args()

    accelerator = Accelerator(mixed_precision=args.mixed_precision)
    train_ds = ChurnDataset(2048, 20, seed=0)
    eval_ds = ChurnDataset(512, 20, seed=1)
    train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)
    eval_loader = DataLoader(eval_ds, batch_size=256)

    model = MLP(20)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs * len(train_loader))
    model, optimizer, train_loader, eval_loader, scheduler = accelerator.prepare(
        model, optimizer, train_loader, eval_loader, scheduler)

    for epoch in range(args.epochs):
        model.train()
        running = torch.zeros((), device=accelerator.device)
        train_preds = []
        for batch in train_loader:
            logits = model(batch["features"])
            loss = F.cross_entropy(logits, batch["label"])
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            running += loss.detach()
            train_preds.append(logits.argmax(-1).cpu().numpy())
        pos_rate = np.concatenate(train_preds).mean()
        accelerator.print(f"epoch {epoch}: loss {running.item() / len(train_loader):.4f} pos-rate {pos_rate:.3f}")

        model.eval()
        correct = torch.zeros((), device=accelerator.device)
        seen = 0
        for batch in eval_loader:
            with torch.no_grad():
                logits = model(batch["features"])
            preds, labels = accelerator.gather_for_metrics((logits.argmax(-1), batch["label"]))
            correct += (preds == labels).sum()
            seen += labels.numel()
        accelerator.print(f"  eval acc {correct.item() / seen:.4f}")


if __name__ == "__main__":
    main()
