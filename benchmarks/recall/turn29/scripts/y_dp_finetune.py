"""Fine-tune a small image backbone with nn.DataParallel, swapping in a new classifier for the target classes."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Backbone(nn.Module):
    def __init__(self, n_classes=100):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--classes", type=int, default=7)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--freeze", action="store_true")
    args = ap.parse_args()

    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    model = Backbone()
    if torch.cuda.device_count() > 1:
        model = nn.DataParallel(model)
    model = model.to(device)
    core = model.module if isinstance(model, nn.DataParallel) else model
    core.classifier = nn.Linear(64, args.classes)  # expect: DEV015
    if args.freeze:
        for p in core.features.parameters():
            p.requires_grad_(False)

    data = TensorDataset(torch.rand(96, 3, 32, 32), torch.randint(0, args.classes, (96,)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.01, momentum=0.9)

    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
