"""Resumable training of a temporal convolutional network (dilated causal convolutions) that
forecasts traffic speed at 8 sensors; --resume restores model, optimizer and epoch.

Thread: https://github.com/michuanhaohao/reid-strong-baseline/issues/114 (resume error: the
optimizer state restored from the checkpoint has to be moved to the GPU after model.to(device)).
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CausalBlock(nn.Module):
    def __init__(self, ch, dilation):
        super().__init__()
        self.pad = 2 * dilation
        self.conv = nn.Conv1d(ch, ch, 3, dilation=dilation)

    def forward(self, x):
        return x + F.relu(self.conv(F.pad(x, (self.pad, 0))))


class TCN(nn.Module):
    def __init__(self, sensors=8, ch=32, horizon=3):
        super().__init__()
        self.sensors, self.horizon = sensors, horizon
        self.inp = nn.Conv1d(sensors, ch, 1)
        self.blocks = nn.Sequential(*[CausalBlock(ch, 2 ** i) for i in range(4)])
        self.out = nn.Linear(ch, sensors * horizon)

    def forward(self, x):
        h = self.blocks(self.inp(x))[:, :, -1]
        return self.out(h).view(-1, self.horizon, self.sensors)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = TCN()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    start = 0
    if args.resume and os.path.exists(args.resume):
        ckpt = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        start = ckpt["epoch"] + 1
    model.to(device)

    speeds = torch.randn(512, 8, 48)
    targets = speeds[:, :, -3:].transpose(1, 2) + 0.1 * torch.randn(512, 3, 8)
    loader = DataLoader(TensorDataset(speeds, targets), batch_size=64, shuffle=True)
    for epoch in range(start, start + args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.smooth_l1_loss(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "epoch": epoch}, "tcn_last.pt")


if __name__ == "__main__":
    main()
