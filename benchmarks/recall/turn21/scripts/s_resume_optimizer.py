"""Train a regressor with AdamW + cosine schedule and resumable checkpoints.
First run:  python s_resume_optimizer.py --epochs 2 --ckpt /tmp/s_resume.pt
Resume:     python s_resume_optimizer.py --epochs 4 --ckpt /tmp/s_resume.pt --resume
"""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_model():
    return nn.Sequential(nn.Linear(8, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))


def save_checkpoint(path, model, optimizer, scheduler, epoch):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "epoch": epoch}, path)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--ckpt", default="/tmp/s_resume_optimizer.pt")
    p.add_argument("--resume", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    x = torch.randn(128, 8)
    y = (x[:, :2].sum(1, keepdim=True) ** 2) + 0.1 * torch.randn(128, 1)
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)

    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10)
    start_epoch = 0

    if args.resume and os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt)  # expect: DEV008
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        scheduler.load_state_dict(ckpt["scheduler"])
        start_epoch = ckpt["epoch"] + 1
        print(f"resumed from epoch {ckpt['epoch']}")

    model.to(device)
    loss_fn = nn.MSELoss()
    for epoch in range(start_epoch, args.epochs):
        model.train()
        total = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = loss_fn(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(xb)
        scheduler.step()
        print(f"epoch {epoch} mse {total / len(loader.dataset):.4f} lr {scheduler.get_last_lr()[0]:.5f}")
        save_checkpoint(args.ckpt, model, optimizer, scheduler, epoch)


if __name__ == "__main__":
    main()
