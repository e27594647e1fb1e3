"""Tiny U-Net for binary-plus-background segmentation with class-balanced cross entropy."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class TinyUNet(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.enc1, self.enc2 = block(3, 16), block(16, 32)
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.dec = block(32, 16)
        self.head = nn.Conv2d(16, n_cls, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        d = self.dec(torch.cat([self.up(e2), e1], dim=1))
        return self.head(d)


def synthetic(n=64, size=32):
    x = torch.rand(n, 3, size, size)
    y = torch.zeros(n, size, size, dtype=torch.long)
    y[:, 8:16, 8:24] = 1
    y[:, 20:28, 4:12] = 2
    x[:, 0][y == 1] += 0.5
    x[:, 1][y == 2] += 0.5
    return x, y


def miou(pred, target, n_cls=3):
    ious = []
    for c in range(n_cls):
        inter = ((pred == c) & (target == c)).sum().item()
        union = ((pred == c) | (target == c)).sum().item()
        if union:
            ious.append(inter / union)
    return sum(ious) / len(ious)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    x, y = synthetic()
    train_loader = DataLoader(TensorDataset(x[:48], y[:48]), batch_size=8, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[48:], y[48:]), batch_size=8)

    freq = torch.bincount(y[:48].flatten(), minlength=3).float()
    class_w = (1.0 / freq.clamp(min=1)) / (1.0 / freq.clamp(min=1)).sum() * 3
    criterion = nn.CrossEntropyLoss(weight=class_w, ignore_index=255)  # expect: DEV012

    model = TinyUNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    # sanity check on one validation batch before training
    images, masks = next(iter(val_loader))
    images, masks = images.to(device), masks.to(device)  # expect: DEV003
    with torch.no_grad():
        print("initial mIoU:", round(miou(model(images).argmax(1), masks), 3))

    for epoch in range(args.epochs):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        scores = []
        with torch.no_grad():
            for images, masks in val_loader:
                pred = model(images).argmax(1)  # also: DEV002
                scores.append(miou(pred, masks))
        print(f"epoch {epoch}: loss {loss.item():.3f} val mIoU {sum(scores) / len(scores):.3f}")


if __name__ == "__main__":
    main()
