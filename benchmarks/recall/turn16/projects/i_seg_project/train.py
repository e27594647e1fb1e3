"""Train the segkit UNet on synthetic aerial tiles.

    python train.py --epochs 3 --out-dir /tmp/segkit
    python train.py --resume /tmp/segkit/last.pt --epochs 1
"""
import argparse
import os
import tempfile

import numpy as np
import torch

from segkit import TinyUNet, TrainConfig, resolve_device
from segkit.data import make_loaders
from segkit.losses import build_criterion
from segkit.viz import ConfusionMeter, colorize


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    p.add_argument("--device", default=None)
    p.add_argument("--resume", default="")
    p.add_argument("--out-dir", default=tempfile.mkdtemp(prefix="segkit_"))
    a = p.parse_args()
    cfg = TrainConfig(epochs=a.epochs, device=a.device, resume=a.resume, out_dir=a.out_dir)

    torch.manual_seed(0)
    device = resolve_device(cfg.device)
    train_loader, val_loader = make_loaders(cfg)
    model = TinyUNet(cfg.num_classes).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    criterion = build_criterion(cfg, device)
    start_epoch = 0
    if cfg.resume:
        ckpt = torch.load(cfg.resume, map_location=device)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start_epoch = ckpt["epoch"] + 1

    for epoch in range(start_epoch, start_epoch + cfg.epochs):
        model.train()
        for images, masks in train_loader:
            images, masks = images.to(device), masks.to(device)
            loss = criterion(model(images), masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        meter = ConfusionMeter(cfg.num_classes, cfg.ignore_index, device)
        with torch.no_grad():
            for images, masks in val_loader:
                images, masks = images.to(device), masks.to(device)
                pred = model(images).argmax(1)
                meter.update(pred, masks)
        miou, per_class = meter.miou()
        print(f"epoch {epoch} loss {loss.item():.4f} mIoU {miou:.3f} "
              + " ".join(f"{c}={v:.2f}" for c, v in zip(cfg.classes, per_class)))

    os.makedirs(cfg.out_dir, exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch},
               os.path.join(cfg.out_dir, "last.pt"))
    np.save(os.path.join(cfg.out_dir, "val_pred.npy"), colorize(pred[0], cfg.ignore_index))
    print("saved to", cfg.out_dir)


if __name__ == "__main__":
    main()
