"""Resumable training with SGD + Nesterov momentum and a cosine schedule: --resume restores model,
optimizer and scheduler state from the last checkpoint before the run continues.

Thread: https://github.com/pytorch/pytorch/issues/2830 (optimizer load_state_dict() problem: the
momentum state and the parameters end up on different devices after a resume).
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def build_model():
    return nn.Sequential(nn.Linear(32, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, 10))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--out", default="last.pt")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)
    start_epoch = 0
    if args.resume and os.path.isfile(args.resume):
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        scheduler.load_state_dict(ckpt["scheduler"])
        start_epoch = ckpt["epoch"] + 1
    model = model.to(device)
    data = TensorDataset(torch.randn(2048, 32), torch.randint(0, 10, (2048,)))
    for epoch in range(start_epoch, args.epochs):
        for x, y in DataLoader(data, batch_size=128, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(), "epoch": epoch}, args.out)
        print(f"epoch {epoch} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.4f}")


if __name__ == "__main__":
    main()
