"""Organ segmentation on CT slices: a small U-Net trained with CE + weighted soft Dice."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class TinyUNet(nn.Module):
    def __init__(self, in_ch=1, n_classes=3, width=8):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(width, width * 2, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(width * 2, width, 2, stride=2)
        self.dec = nn.Sequential(nn.Conv2d(width * 2, width, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(width, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        d = self.dec(torch.cat([self.up(e2), e1], dim=1))
        return self.head(d)


class WeightedDiceLoss(nn.Module):
    def __init__(self, class_weights, smooth=1.0):
        super().__init__()
        self.register_buffer("class_weights", torch.tensor(class_weights, dtype=torch.float32))
        self.smooth = smooth

    def forward(self, logits, target):
        n_classes = logits.shape[1]
        probs = logits.softmax(dim=1)
        onehot = F.one_hot(target, n_classes).permute(0, 3, 1, 2).float()
        inter = (probs * onehot).sum(dim=(0, 2, 3))
        denom = probs.sum(dim=(0, 2, 3)) + onehot.sum(dim=(0, 2, 3))
        dice = (2 * inter + self.smooth) / (denom + self.smooth)
        return 1 - (self.class_weights * dice).sum() / self.class_weights.sum()


def class_frequency_weights(masks, n_classes):
    counts = np.bincount(masks.reshape(-1), minlength=n_classes).astype(np.float32)
    w = counts.sum() / (n_classes * np.maximum(counts, 1))
    return torch.from_numpy(w)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    rng = np.random.default_rng(0)
    images = rng.normal(size=(16, 1, 32, 32)).astype(np.float32)
    masks = rng.integers(0, 3, size=(16, 32, 32))
    ds = TensorDataset(torch.from_numpy(images), torch.from_numpy(masks).long())
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True)

    model = TinyUNet().to(device)
    ce_weights = class_frequency_weights(masks, 3)
    ce = nn.CrossEntropyLoss(weight=ce_weights.to(device))
    dice = WeightedDiceLoss([0.2, 1.0, 1.0]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for img, mask in loader:
            img, mask = img.to(device), mask.to(device)
            logits = model(img)
            loss = ce(logits, mask) + dice(logits, mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f}")


if __name__ == "__main__":
    main()
