"""Semantic segmentation with median-frequency class weights and ignore_index=255,
plus a cheap CRF-like smoothing of the softmax maps before the argmax."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

IGNORE = 255


def median_frequency_weights(masks, n_classes):
    valid = masks[masks != IGNORE]
    counts = torch.bincount(valid.flatten(), minlength=n_classes).float()
    freq = counts / counts.sum()
    return torch.median(freq) / freq.clamp(min=1e-6)


class SmallUNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.out = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        return self.out(F.relu(self.up(self.mid(self.down(x)))))


def smooth_probs(probs, iters=2):
    """Mean-field-ish smoothing: average each class map with its 3x3 neighbourhood."""
    C = probs.shape[1]
    kernel = torch.full((C, 1, 3, 3), 1.0 / 9.0)  # expect: DEV006
    for _ in range(iters):
        probs = 0.5 * probs + 0.5 * F.conv2d(probs, kernel, padding=1, groups=C)
    return probs / probs.sum(1, keepdim=True)


def evaluate(model, loader, device, n_classes):
    model.eval()
    inter = torch.zeros(n_classes, device=device)
    union = torch.zeros(n_classes, device=device)
    with torch.no_grad():
        for images, masks in loader:
            images, masks = images.to(device), masks.to(device)
            pred = smooth_probs(model(images).softmax(1)).argmax(1)
            valid = masks != IGNORE
            for c in range(n_classes):
                p, t = (pred == c) & valid, (masks == c) & valid
                inter[c] += (p & t).sum()
                union[c] += (p | t).sum()
    return (inter / union.clamp(min=1)).mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--classes", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    images = torch.rand(24, 3, 32, 32)
    masks = torch.randint(0, args.classes, (24, 32, 32))
    masks[:, :2, :] = IGNORE  # unlabeled border rows
    loader = DataLoader(TensorDataset(images, masks), batch_size=8, shuffle=True)

    class_weights = median_frequency_weights(masks, args.classes)
    criterion = nn.CrossEntropyLoss(weight=class_weights, ignore_index=IGNORE)  # expect: DEV012

    model = SmallUNet(args.classes).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f} mIoU {evaluate(model, loader, device, args.classes):.3f}")


if __name__ == "__main__":
    main()
