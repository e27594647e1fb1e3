"""Semantic segmentation with frequency-weighted cross entropy and an mIoU report."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    num_classes: int = 4
    ignore_index: int = 255
    epochs: int = 2
    batch_size: int = 8
    lr: float = 1e-3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


def toy_data(n=48, size=24):
    imgs = torch.rand(n, 3, size, size)
    masks = (imgs[:, 0] * 3.99).long()
    masks[:, :2, :] = 255
    return imgs, masks


class SmallFCN(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        return self.cls(self.enc(x))


def class_weights(masks, num_classes, ignore_index):
    valid = masks[masks != ignore_index]
    counts = torch.bincount(valid.flatten(), minlength=num_classes).float()
    return counts.sum() / (num_classes * counts.clamp(min=1))


def build_criterion(cfg, train_masks):
    w = class_weights(train_masks, cfg.num_classes, cfg.ignore_index)
    return nn.CrossEntropyLoss(weight=w, ignore_index=cfg.ignore_index)  # expect: DEV012


def miou(pred, gt, num_classes, ignore_index):
    keep = gt != ignore_index
    cm = np.bincount(num_classes * gt[keep] + pred[keep], minlength=num_classes ** 2).reshape(num_classes, -1)
    inter = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - inter
    return float(np.mean(inter / np.maximum(union, 1)))


def main(cfg=Config()):
    imgs, masks = toy_data()
    train = DataLoader(TensorDataset(imgs[:32], masks[:32]), batch_size=cfg.batch_size, shuffle=True)
    val = DataLoader(TensorDataset(imgs[32:], masks[32:]), batch_size=cfg.batch_size)
    model = SmallFCN(cfg.num_classes).to(cfg.device)
    criterion = build_criterion(cfg, masks[:32])
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        model.train()
        for img, mask in train:
            img, mask = img.to(cfg.device), mask.to(cfg.device)
            loss = criterion(model(img), mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")

    model.eval()
    preds, gts = [], []
    with torch.no_grad():
        for img, mask in val:
            preds.append(model(img.to(cfg.device)).argmax(1))
            gts.append(mask.numpy())
    pred = np.concatenate([p.numpy() for p in preds]).ravel()  # expect: DEV011
    gt = np.concatenate(gts).ravel()
    print("val mIoU", round(miou(pred, gt, cfg.num_classes, cfg.ignore_index), 3))


if __name__ == "__main__":
    main()
