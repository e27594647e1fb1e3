"""Trainer with periodic checkpoints (model, optimizer, scheduler, epoch) and --resume.

    python y_resume_ckpt.py --epochs 2 --ckpt run.pt
    python y_resume_ckpt.py --epochs 4 --ckpt run.pt --resume
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self, in_dim=16, hidden=64, n_classes=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--ckpt", default="resume_demo.pt")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="force CPU even if a GPU is present")
    return parser.parse_args()


def main():
    args = get_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    g = torch.Generator().manual_seed(0)
    x = torch.randn(600, 16, generator=g)
    y = (x[:, :5].argmax(1)).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=50, shuffle=True)

    model = MLP()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    start_epoch = 0
    if args.resume and os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt)  # expect: DEV008
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        scheduler.load_state_dict(ckpt["scheduler"])
        start_epoch = ckpt["epoch"] + 1
        print(f"resumed from epoch {ckpt['epoch']}")
    model.to(device)

    for epoch in range(start_epoch, args.epochs):
        model.train()
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        print(f"epoch {epoch} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.5f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
