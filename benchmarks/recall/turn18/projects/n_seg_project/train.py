"""Entry point: python train.py [--device cpu]"""
import argparse

import numpy as np
import torch

from segkit.config import TrainConfig
from segkit.data import build_loader
from segkit.losses import DiceCELoss
from segkit.model import MiniUNet


@torch.no_grad()
def evaluate(model, loader, cfg, device):
    model.eval()
    hist = np.zeros((cfg.num_classes, cfg.num_classes), dtype=np.int64)
    for imgs, masks in loader:
        pred = model(imgs.to(device)).argmax(1).cpu().numpy()
        m = masks.numpy()
        keep = m != cfg.ignore_index
        hist += np.bincount(cfg.num_classes * m[keep] + pred[keep],
                            minlength=cfg.num_classes ** 2).reshape(cfg.num_classes, -1)
    iou = np.diag(hist) / np.maximum(hist.sum(0) + hist.sum(1) - np.diag(hist), 1)
    return float(iou.mean())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="auto")
    args = p.parse_args()
    cfg = TrainConfig(device=args.device)
    device = cfg.resolve_device()

    model = MiniUNet(cfg.num_classes, cfg.pixel_mean, cfg.pixel_std).to(device)
    criterion = DiceCELoss(cfg.num_classes, cfg.class_weights, cfg.ignore_index, cfg.dice_weight).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    train_loader, val_loader = build_loader(cfg), build_loader(cfg, n=8, shuffle=False)

    for epoch in range(cfg.epochs):
        model.train()
        for imgs, masks in train_loader:
            imgs, masks = imgs.to(device, non_blocking=True), masks.to(device, non_blocking=True)
            loss = criterion(model(imgs), masks)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} val mIoU {evaluate(model, val_loader, cfg, device):.3f}")


if __name__ == "__main__":
    main()
