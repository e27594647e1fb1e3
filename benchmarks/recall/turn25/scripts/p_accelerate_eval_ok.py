"""Regression of house prices with accelerate: train and eval loaders both go
through prepare, predictions are gathered for the metrics and brought to the
host before NumPy, the best model is saved unwrapped and reloaded for a final
check.

    accelerate launch p_accelerate_eval_ok.py
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = x @ torch.linspace(0.5, 2.0, 8) + 0.1 * torch.randn(n, generator=g)
    return TensorDataset(x, y)


def evaluate(accelerator, model, loader):
    model.eval()
    preds, refs = [], []
    for x, y in loader:
        with torch.no_grad():
            pred = model(x).squeeze(-1)
        pred, y = accelerator.gather_for_metrics((pred, y))
        preds.append(pred.cpu())
        refs.append(y.cpu())
    preds, refs = torch.cat(preds).numpy(), torch.cat(refs).numpy()
    return float(np.sqrt(np.mean((preds - refs) ** 2))), float(np.median(np.abs(preds - refs)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "p_house_best.pt"))
    args = parser.parse_args()

    accelerator = Accelerator()
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train_dl = DataLoader(make_split(256, 0), batch_size=32, shuffle=True)
    eval_dl = DataLoader(make_split(64, 1), batch_size=32)
    model, optimizer, train_dl, eval_dl = accelerator.prepare(model, optimizer, train_dl, eval_dl)

    best = float("inf")
    for epoch in range(args.epochs):
        model.train()
        for x, y in train_dl:
            loss = F.mse_loss(model(x).squeeze(-1), y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        rmse, mae = evaluate(accelerator, model, eval_dl)
        accelerator.print(f"epoch {epoch}: rmse {rmse:.3f} median abs err {mae:.3f}")
        if rmse < best:
            best = rmse
            accelerator.wait_for_everyone()
            accelerator.save(accelerator.unwrap_model(model).state_dict(), args.out)

    reloaded = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    reloaded.load_state_dict(torch.load(args.out, map_location="cpu"))
    reloaded.to(accelerator.device).eval()
    x, _ = next(iter(eval_dl))
    with torch.no_grad():
        accelerator.print("reloaded prediction sample:", reloaded(x)[:3].squeeze(-1).tolist())


if __name__ == "__main__":
    main()
