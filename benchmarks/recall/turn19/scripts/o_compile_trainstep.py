"""1-D CNN for arrhythmia-like beat classification, torch.compile + bf16 autocast.

    python o_compile_trainstep.py --compile --epochs 3
"""
import argparse
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class BeatNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(1, 32, 7, padding=3), nn.BatchNorm1d(32), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(32, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(64, 64, 3, padding=1), nn.BatchNorm1d(64), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        )
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.body(x))


def synthetic_beats(n=512, length=128, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(-1, 1, length)
    y = torch.randint(0, 3, (n,), generator=g)
    width = torch.tensor([0.05, 0.12, 0.25])[y]
    x = torch.exp(-(t[None] ** 2) / width[:, None]) + 0.05 * torch.randn(n, length, generator=g)
    x = x + 0.2 * torch.sin(2 * math.pi * 3 * t)[None] * (y == 2).float()[:, None]
    return TensorDataset(x.unsqueeze(1), y)


def train_step(model, batch, optimizer, device, amp_dtype):
    model.to(device)  # expect: DEV007
    model.train()
    x, y = batch
    for t in (x, y):
        t.to(device, non_blocking=True)  # expect: DEV005
    with torch.autocast(device_type=device.type, dtype=amp_dtype):
        logits = model(x)  # also: DEV002
        loss = F.cross_entropy(logits, y)  # also: DEV004
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.detach()


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(1) == y).sum().item()
        total += y.numel()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("--lr", type=float, default=3e-3)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    amp_dtype = torch.bfloat16

    model = BeatNet()
    if args.compile:
        model = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    train_loader = DataLoader(synthetic_beats(256, seed=0), batch_size=64, shuffle=True, pin_memory=True)
    val_loader = DataLoader(synthetic_beats(128, seed=1), batch_size=128)

    for epoch in range(args.epochs):
        t0 = time.time()
        running = 0.0
        for batch in train_loader:
            running += train_step(model, batch, optimizer, device, amp_dtype).item()
        acc = evaluate(model, val_loader, device)
        print(f"epoch {epoch}: loss {running / len(train_loader):.4f} val acc {acc:.3f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
