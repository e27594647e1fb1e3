"""Semantic segmentation with inverse-frequency class weights and an ignore label."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

IGNORE = 255


@dataclass
class Config:
    num_classes: int = 4
    epochs: int = 2
    batch_size: int = 4
    lr: float = 1e-3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


def make_data(n=24, size=32, num_classes=4):
    rng = np.random.default_rng(0)
    images = rng.random((n, 3, size, size), dtype=np.float32)
    masks = rng.integers(0, num_classes, (n, size, size)).astype(np.int64)
    masks[:, :2, :] = IGNORE  # unlabeled border
    return images, masks


def class_weights(masks, num_classes):
    valid = masks[masks != IGNORE]
    counts = np.bincount(valid, minlength=num_classes).astype(np.float32)
    freq = counts / counts.sum()
    return 1.0 / (np.log(1.02 + freq))


class SmallSegNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        return self.cls(self.enc(x))


def mean_iou(pred, target, num_classes):
    valid = target != IGNORE
    ious = []
    for c in range(num_classes):
        p = (pred == c) & valid
        t = (target == c) & valid
        union = (p | t).sum()
        if union > 0:
            ious.append(((p & t).sum().float() / union).item())
    return sum(ious) / max(len(ious), 1)


def validate(model, loader, cfg):
    model.eval()
    scores = []
    with torch.no_grad():
        for images, masks in loader:
            logits = model(images)  # expect: DEV002
            pred = logits.argmax(1).cpu()
            scores.append(mean_iou(pred, masks, cfg.num_classes))
    return sum(scores) / len(scores)


def main():
    cfg = Config()
    device = torch.device(cfg.device)
    images, masks = make_data(num_classes=cfg.num_classes)
    w = class_weights(masks[:16], cfg.num_classes)
    train_ds = TensorDataset(torch.from_numpy(images[:16]), torch.from_numpy(masks[:16]))
    val_ds = TensorDataset(torch.from_numpy(images[16:]), torch.from_numpy(masks[16:]))
    train_loader = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=cfg.batch_size)

    model = SmallSegNet(cfg.num_classes).to(device)
    criterion = nn.CrossEntropyLoss(weight=torch.from_numpy(w), ignore_index=IGNORE)  # expect: DEV012
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        miou = validate(model, val_loader, cfg)
        print(f"epoch {epoch}: loss {loss.item():.3f} mIoU {miou:.3f}")


if __name__ == "__main__":
    main()
