"""Semantic segmentation of synthetic blobs with a tiny encoder-decoder.

Background dominates, so the cross-entropy is weighted by inverse class
frequency computed over the training masks (median-frequency balancing).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_blobs(n, size=32, num_classes=3, seed=0):
    rng = np.random.default_rng(seed)
    imgs = np.zeros((n, 1, size, size), np.float32)
    masks = np.zeros((n, size, size), np.int64)
    yy, xx = np.mgrid[:size, :size]
    for i in range(n):
        for c in range(1, num_classes):
            cy, cx, r = rng.integers(6, size - 6), rng.integers(6, size - 6), rng.integers(2, 5)
            blob = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
            masks[i][blob] = c
            imgs[i, 0][blob] = c / num_classes
    imgs += 0.1 * rng.standard_normal(imgs.shape).astype(np.float32)
    return torch.from_numpy(imgs), torch.from_numpy(masks)


def median_frequency_weights(masks, num_classes):
    counts = np.bincount(masks.reshape(-1).numpy(), minlength=num_classes).astype(np.float64)
    freq = counts / counts.sum()
    return np.median(freq) / freq


class EncDec(nn.Module):
    def __init__(self, num_classes=3, ch=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
                                 nn.Conv2d(2 * ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, num_classes, 1))

    def forward(self, x):
        return self.dec(self.enc(x))


def mean_iou(pred, mask, num_classes):
    ious = []
    for c in range(num_classes):
        inter = ((pred == c) & (mask == c)).sum().item()
        union = ((pred == c) | (mask == c)).sum().item()
        if union:
            ious.append(inter / union)
    return sum(ious) / len(ious)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--classes", type=int, default=3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    imgs, masks = make_blobs(96, num_classes=args.classes)
    loader = DataLoader(TensorDataset(imgs, masks), batch_size=16, shuffle=True)
    weights = median_frequency_weights(masks, args.classes)
    print("class weights", np.round(weights, 3))
    criterion = nn.CrossEntropyLoss(weight=torch.tensor(weights, dtype=torch.float32))  # expect: DEV012

    model = EncDec(args.classes)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        model.train()
        for x, m in loader:
            model = model.to(device)  # expect: DEV007
            x, m = x.to(device), m.to(device)
            loss = criterion(model(x), m)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            pred = model(imgs[:32].to(device)).argmax(1)
        print(f"epoch {epoch}: loss {loss.item():.3f} mIoU {mean_iou(pred, masks[:32].to(device), args.classes):.3f}")


if __name__ == "__main__":
    main()
