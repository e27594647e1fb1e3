"""Train a small ResNet-ish CIFAR model with AdamW + OneCycle, checkpointing
every epoch; --resume picks up model, optimizer, scheduler and epoch.

    python p_resume_optimizer_state.py --epochs 2 --ckpt run.pt
    python p_resume_optimizer_state.py --epochs 4 --ckpt run.pt --resume
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(c)
        self.c2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(c)

    def forward(self, x):
        return F.relu(x + self.b2(self.c2(F.relu(self.b1(self.c1(x))))))


def build_model(width=16, classes=10):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), Block(width), nn.MaxPool2d(2), Block(width),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, classes),
    )


def build_training(model, args, steps_per_epoch):
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=args.lr, epochs=args.total_epochs, steps_per_epoch=steps_per_epoch
    )
    return optimizer, scheduler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--total-epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--ckpt", default=os.path.join(tempfile.gettempdir(), "p_resume_run.pt"))
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    data = TensorDataset(torch.randn(128, 3, 16, 16), torch.randint(0, 10, (128,)))
    loader = DataLoader(data, batch_size=32, shuffle=True, drop_last=True)

    model = build_model()
    optimizer, scheduler = build_training(model, args, len(loader))
    start_epoch = 0
    if args.resume and os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])  # expect: DEV017
        scheduler.load_state_dict(state["scheduler"])
        start_epoch = state["epoch"] + 1
        print(f"resumed from epoch {state['epoch']}")
    model.to(device)

    for epoch in range(start_epoch, min(start_epoch + args.epochs, args.total_epochs)):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            scheduler.step()
        torch.save(
            {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
             "scheduler": scheduler.state_dict(), "epoch": epoch},
            args.ckpt,
        )
        print(f"epoch {epoch}: loss {loss.item():.3f} lr {scheduler.get_last_lr()[0]:.5f}")


if __name__ == "__main__":
    main()
