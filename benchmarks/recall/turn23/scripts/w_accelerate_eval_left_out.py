"""accelerate training of a small regression MLP; evaluation written later and bolted on."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_loaders(n_train=256, n_eval=64, dim=8, bs=32):
    g = torch.Generator().manual_seed(0)
    w = torch.randn(dim, 1, generator=g)
    xt = torch.randn(n_train, dim, generator=g)
    xe = torch.randn(n_eval, dim, generator=g)
    train = TensorDataset(xt, xt @ w + 0.1 * torch.randn(n_train, 1, generator=g))
    evals = TensorDataset(xe, xe @ w)
    return (DataLoader(train, batch_size=bs, shuffle=True),
            DataLoader(evals, batch_size=bs))


def evaluate(accelerator, model, eval_loader):
    model.eval()
    preds, targets = [], []
    with torch.no_grad():
        for x, y in eval_loader:
            out = model(x)  # expect: DEV002
            out, y = accelerator.gather_for_metrics((out, y))
            preds.append(out)
            targets.append(y)
    preds = torch.cat(preds).squeeze(-1).numpy()  # expect: DEV011
    targets = torch.cat(targets).squeeze(-1).cpu().numpy()
    model.train()
    return {
        "rmse": float(np.sqrt(np.mean((preds - targets) ** 2))),
        "r2": float(1 - np.sum((preds - targets) ** 2) / np.sum((targets - targets.mean()) ** 2)),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--mixed_precision", default="no")
    args = parser.parse_args()

    accelerator = Accelerator(mixed_precision=args.mixed_precision)
    train_loader, eval_loader = make_loaders()
    model = nn.Sequential(nn.Linear(8, 32), nn.SiLU(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)

    loss_fn = nn.MSELoss()
    for epoch in range(args.epochs):
        for x, y in train_loader:
            loss = loss_fn(model(x), y)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
        metrics = evaluate(accelerator, model, eval_loader)
        accelerator.print(f"epoch {epoch} train-loss {loss.item():.4f} {metrics}")


if __name__ == "__main__":
    main()
