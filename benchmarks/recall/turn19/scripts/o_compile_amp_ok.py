"""Human-activity recognition from accelerometer windows: 1-D ResNet, torch.compile,
fp16 autocast + GradScaler on GPU (bf16 autocast on CPU).

    python o_compile_amp_ok.py --compile
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv1d(ch, ch, 5, padding=2)
        self.bn1 = nn.BatchNorm1d(ch)
        self.conv2 = nn.Conv1d(ch, ch, 5, padding=2)
        self.bn2 = nn.BatchNorm1d(ch)

    def forward(self, x):
        return F.relu(x + self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x))))))


class HARNet(nn.Module):
    def __init__(self, in_ch=3, ch=32, n_classes=4):
        super().__init__()
        self.stem = nn.Conv1d(in_ch, ch, 7, padding=3)
        self.blocks = nn.Sequential(*[Block(ch) for _ in range(3)])
        self.fc = nn.Linear(ch, n_classes)

    def forward(self, x):
        return self.fc(self.blocks(F.relu(self.stem(x))).mean(-1))


def activity_windows(n, length=100, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    t = torch.arange(length) / 50.0
    freq = torch.tensor([0.0, 1.0, 2.0, 3.0])[y]
    x = torch.sin(2 * math.pi * freq[:, None, None] * t) * torch.ones(n, 3, 1)
    return TensorDataset(x + 0.1 * torch.randn(n, 3, length, generator=g), y)


def train_step(model, batch, optimizer, scaler, device, amp_dtype):
    x, y = batch
    x = x.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    with torch.autocast(device_type=device.type, dtype=amp_dtype):
        loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    return loss.detach()


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct = torch.zeros((), device=device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(1) == y).sum()
    model.train()
    return correct.item() / len(loader.dataset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--compile", action="store_true")
    args = ap.parse_args()

    model = HARNet()
    if torch.cuda.is_available():
        model = model.cuda()
        torch.backends.cudnn.benchmark = True
    device = next(model.parameters()).device
    amp_dtype = torch.float16 if device.type == "cuda" else torch.bfloat16
    scaler = torch.amp.GradScaler(device.type, enabled=device.type == "cuda")
    if args.compile:
        model = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)

    train_loader = DataLoader(activity_windows(512), batch_size=64, shuffle=True,
                              pin_memory=device.type == "cuda")
    val_loader = DataLoader(activity_windows(128, seed=1), batch_size=128)
    for epoch in range(args.epochs):
        losses = torch.stack([train_step(model, b, optimizer, scaler, device, amp_dtype) for b in train_loader])
        print(f"epoch {epoch}: loss {losses.mean().item():.4f} val acc {evaluate(model, val_loader, device):.3f}")


if __name__ == "__main__":
    main()
