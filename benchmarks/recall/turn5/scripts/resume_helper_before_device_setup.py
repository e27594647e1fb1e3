"""Training script with a resume helper and a separate device-setup helper; main restores the
checkpoint first, then places the model (and enables channels_last) for the run."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ConvNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(64, classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def restore(path, model, optimizer, scheduler):
    ckpt = torch.load(path, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
    scheduler.load_state_dict(ckpt["scheduler"])
    return ckpt["epoch"] + 1


def place(model, device):
    model.to(device)
    if device.type == "cuda":
        model.to(memory_format=torch.channels_last)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--ckpt", default="ckpt/last.pt")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = ConvNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)
    start = restore(args.ckpt, model, optimizer, scheduler) if os.path.exists(args.ckpt) else 0
    model = place(model, device)

    loader = DataLoader(TensorDataset(torch.randn(2048, 3, 32, 32), torch.randint(0, 10, (2048,))),
                        batch_size=128, shuffle=True)
    for epoch in range(start, args.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        os.makedirs(os.path.dirname(args.ckpt), exist_ok=True)
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
