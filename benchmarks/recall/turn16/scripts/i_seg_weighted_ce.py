"""Semantic segmentation on synthetic "street" scenes with median-frequency
class balancing, ignore_index for void pixels, and a colour overlay dump.
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

NUM_CLASSES = 4          # road, car, sign, sky
IGNORE = 255
PALETTE = np.array([[128, 64, 128], [0, 0, 142], [220, 220, 0], [70, 130, 180]], dtype=np.uint8)


class SyntheticScenes(Dataset):
    def __init__(self, n=48, size=64, seed=0):
        self.n, self.size = n, size
        self.rng = np.random.default_rng(seed)
        self.samples = [self._make() for _ in range(n)]

    def _make(self):
        s = self.size
        mask = np.zeros((s, s), dtype=np.int64)
        mask[: s // 3] = 3
        for _ in range(self.rng.integers(1, 3)):
            x0, y0 = self.rng.integers(0, s - 16, size=2)
            mask[max(y0, s // 3): y0 + 10, x0: x0 + 16] = 1
        x0, y0 = self.rng.integers(0, s - 4, size=2)
        mask[y0: y0 + 4, x0: x0 + 4] = 2
        mask[:, :2] = IGNORE            # void border from the annotation tool
        img = PALETTE[np.clip(mask, 0, NUM_CLASSES - 1)].astype(np.float32) / 255.0
        img += self.rng.normal(0, 0.1, img.shape).astype(np.float32)
        return img.transpose(2, 0, 1).copy(), mask

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        img, mask = self.samples[i]
        return torch.from_numpy(img), torch.from_numpy(mask)


def median_frequency_weights(dataset, num_classes):
    counts = np.zeros(num_classes)
    for _, m in dataset:
        m = m.numpy()
        counts += np.bincount(m[m != IGNORE].ravel(), minlength=num_classes)
    freq = counts / counts.sum()
    w = np.median(freq) / np.maximum(freq, 1e-8)
    return torch.from_numpy(w).float()


class TinyFCN(nn.Module):
    """Encoder at 1/4 resolution; logits are upsampled back in the loop."""

    def __init__(self, num_classes):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(inplace=True),
        )
        self.classifier = nn.Conv2d(32, num_classes, 1)

    def forward(self, x):
        return self.classifier(self.enc(x))


def colorize(label_map):
    out = PALETTE[np.clip(label_map, 0, NUM_CLASSES - 1)]
    out[label_map == IGNORE] = 0
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--out", default=tempfile.mkdtemp(prefix="seg_"))
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_set = SyntheticScenes(48, seed=0)
    val_set = SyntheticScenes(8, seed=1)
    train_loader = DataLoader(train_set, batch_size=8, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=4)

    weights = median_frequency_weights(train_set, NUM_CLASSES)
    print("class weights", weights.tolist())
    criterion = nn.CrossEntropyLoss(weight=weights, ignore_index=IGNORE)  # expect: DEV012
    model = TinyFCN(NUM_CLASSES).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

    for epoch in range(args.epochs):
        model.train()
        for images, masks in train_loader:
            images, masks = images.to(device), masks.to(device)
            logits = model(images)
            logits = F.interpolate(logits, size=masks.shape[-2:], mode="bilinear", align_corners=False)
            loss = criterion(logits, masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    model.eval()
    images, masks = next(iter(val_loader))
    images = images.to(device)
    with torch.no_grad():
        logits = F.interpolate(model(images), size=masks.shape[-2:], mode="bilinear", align_corners=False)
        pred = logits.argmax(1)
    overlay = np.concatenate([colorize(masks[0].numpy()), colorize(pred[0].numpy())], axis=1)  # expect: DEV011
    path = os.path.join(args.out, "val_overlay.npy")
    np.save(path, overlay)
    print("saved", path, overlay.shape)


if __name__ == "__main__":
    main()
