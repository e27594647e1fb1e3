"""Train a tabular MLP with accelerate; validation predictions are gathered and saved for plotting."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_split(n, d, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    y = (x[:, 0] - x[:, 2] > 0).long()
    return TensorDataset(x, y)


def evaluate(model, loader, accelerator):
    model.eval()
    all_probs, all_refs = [], []
    with torch.no_grad():
        for x, y in loader:
            probs = model(x).softmax(dim=-1)[:, 1]
            probs, refs = accelerator.gather_for_metrics((probs, y))
            all_probs.append(probs.cpu())
            all_refs.append(refs.cpu())
    model.train()
    probs = torch.cat(all_probs).numpy()
    refs = torch.cat(all_refs).numpy()
    return float(((probs > 0.5) == refs).mean()), probs, refs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()

    accelerator = Accelerator(cpu=args.cpu)
    train_loader = DataLoader(make_split(256, 8, 0), batch_size=32, shuffle=True)
    val_loader = DataLoader(make_split(64, 8, 1), batch_size=32)

    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)

    for epoch in range(args.epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
        acc, probs, refs = evaluate(model, val_loader, accelerator)
        if accelerator.is_main_process:
            np.savez(f"val_epoch{epoch}.npz", probs=probs, refs=refs)
        accelerator.print(f"epoch {epoch} val_acc {acc:.3f}")


if __name__ == "__main__":
    main()
