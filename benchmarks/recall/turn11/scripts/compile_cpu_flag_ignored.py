"""Training script for a small traffic-sign classifier with --cpu and --compile flags; accuracy
on the validation split is computed by a helper after every epoch.

Thread: https://github.com/Qiulin-W/SAFA/pull/17 (Honor the --cpu option: ".cuda() should only be
used if the --cpu is not used").
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SignNet(nn.Module):
    def __init__(self, classes=8):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.head = nn.Linear(128, classes)

    def forward(self, x):
        return self.head(self.body(x))


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(), y.cuda()  # expect: DEV001
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    return correct / total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", action="store_true", help="train on the CPU even with a GPU")
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    model = SignNet().to(device)
    if args.compile:
        model = torch.compile(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    images, labels = torch.rand(480, 3, 24, 24), torch.randint(0, 8, (480,))
    train = DataLoader(TensorDataset(images[:400], labels[:400]), batch_size=32, shuffle=True)
    val = DataLoader(TensorDataset(images[400:], labels[400:]), batch_size=80)
    for epoch in range(args.epochs):
        model.train()
        for x, y in train:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.3f} val acc {evaluate(model, val):.3f}")


if __name__ == "__main__":
    main()
