"""Semantic segmentation training with class-weighted CE, ignore_index, EMA weights and mIoU."""
import copy
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Cfg:
    num_classes: int = 5
    ignore_index: int = 255
    ema_decay: float = 0.99
    epochs: int = 2


class SegNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        return self.head(self.enc(x))


def class_weights(masks, cfg):
    valid = masks[masks != cfg.ignore_index]
    counts = torch.bincount(valid.flatten(), minlength=cfg.num_classes).float()
    w = 1.0 / torch.log(1.02 + counts / counts.sum())
    return w


def confusion(pred, target, cfg):
    keep = target != cfg.ignore_index
    idx = target[keep] * cfg.num_classes + pred[keep]
    return torch.bincount(idx, minlength=cfg.num_classes ** 2).view(cfg.num_classes, cfg.num_classes)


@torch.no_grad()
def ema_update(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1 - decay)


def main(cfg=Cfg()):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    images = torch.randn(24, 3, 32, 32)
    masks = torch.randint(0, cfg.num_classes, (24, 32, 32))
    masks[:, :, :3] = cfg.ignore_index
    loader = DataLoader(TensorDataset(images, masks), batch_size=6, shuffle=True)

    model = SegNet(num_classes=21)
    model.head = nn.Conv2d(16, cfg.num_classes, 1)  # new label set
    model = model.to(device)
    ema = copy.deepcopy(model).eval()

    criterion = nn.CrossEntropyLoss(weight=class_weights(masks, cfg).to(device),
                                    ignore_index=cfg.ignore_index)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for epoch in range(cfg.epochs):
        model.train()
        cm = torch.zeros(cfg.num_classes, cfg.num_classes, dtype=torch.long, device=device)
        for x, m in loader:
            x, m = x.to(device), m.to(device)
            loss = criterion(model(x), m)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, cfg.ema_decay)
            with torch.no_grad():
                cm += confusion(ema(x).argmax(1), m, cfg)
        cm = cm.cpu().numpy()
        iou = np.diag(cm) / np.maximum(cm.sum(0) + cm.sum(1) - np.diag(cm), 1)
        print(f"epoch {epoch} loss {loss.item():.3f} ema mIoU {iou.mean():.3f}")


if __name__ == "__main__":
    main()
