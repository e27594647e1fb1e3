"""Mask R-CNN fine-tuning on synthetic "cells" (filled circles), AMP, resumable.

Follows the torchvision detection reference loop (train_one_epoch / evaluate).
"""
import argparse
import math
import os

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
from torchvision.models.detection import maskrcnn_resnet50_fpn
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor
from torchvision.models.detection.mask_rcnn import MaskRCNNPredictor


class CellsDataset(Dataset):
    def __init__(self, n, size=128, seed=0):
        self.n, self.size, self.seed = n, size, seed

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        rng = np.random.default_rng(self.seed * 10000 + idx)
        yy, xx = np.mgrid[:self.size, :self.size]
        img = rng.uniform(0, 0.2, size=(3, self.size, self.size)).astype(np.float32)
        masks, boxes = [], []
        for _ in range(rng.integers(1, 4)):
            r = rng.integers(8, 20)
            cy, cx = rng.integers(r, self.size - r, size=2)
            m = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
            img[:, m] += 0.7
            masks.append(m)
            boxes.append([cx - r, cy - r, cx + r, cy + r])
        target = {
            "boxes": torch.tensor(boxes, dtype=torch.float32),
            "labels": torch.ones(len(boxes), dtype=torch.int64),
            "masks": torch.from_numpy(np.stack(masks).astype(np.uint8)),
        }
        return torch.from_numpy(np.clip(img, 0, 1)), target


def collate_fn(batch):
    return tuple(zip(*batch))


def build_model(num_classes=2):
    model = maskrcnn_resnet50_fpn(weights=None, weights_backbone=None, min_size=128, max_size=128)
    in_features = model.roi_heads.box_predictor.cls_score.in_features
    model.roi_heads.box_predictor = FastRCNNPredictor(in_features, num_classes)
    in_mask = model.roi_heads.mask_predictor.conv5_mask.in_channels
    model.roi_heads.mask_predictor = MaskRCNNPredictor(in_mask, 64, num_classes)
    return model


def train_one_epoch(model, optimizer, loader, device, scaler):
    model.train()
    for images, targets in loader:
        images = list(image.to(device) for image in images)
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        with torch.autocast(device_type=device.type, enabled=scaler.is_enabled()):
            loss_dict = model(images, targets)
            losses = sum(loss for loss in loss_dict.values())
        optimizer.zero_grad()
        scaler.scale(losses).backward()
        scaler.step(optimizer)
        scaler.update()
    return losses.item()


@torch.no_grad()
def evaluate(model, loader, device, thr=0.5):
    model.eval()
    dice = []
    for images, targets in loader:
        outputs = model([img.to(device) for img in images])
        for out, tgt in zip(outputs, targets):
            keep = out["scores"] > thr
            pred = (out["masks"][keep, 0] > 0.5).any(dim=0).cpu().numpy()
            gt = tgt["masks"].any(dim=0).numpy()
            inter = np.logical_and(pred, gt).sum()
            dice.append(2 * inter / (pred.sum() + gt.sum() + 1e-6))
    return float(np.mean(dice))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--resume", default="")
    ap.add_argument("--out", default="maskrcnn_cells.pth")
    args = ap.parse_args()

    device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    model = build_model()
    model.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.01, momentum=0.9, weight_decay=1e-4)
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda e: 0.5 * (1 + math.cos(math.pi * e / max(args.epochs, 1))))
    scaler = torch.amp.GradScaler("cuda", enabled=device.type == "cuda")

    start_epoch = 0
    if args.resume and os.path.exists(args.resume):
        checkpoint = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        lr_scheduler.load_state_dict(checkpoint["lr_scheduler"])
        scaler.load_state_dict(checkpoint["scaler"])
        start_epoch = checkpoint["epoch"] + 1

    train_loader = DataLoader(CellsDataset(16), batch_size=2, shuffle=True, collate_fn=collate_fn)
    val_loader = DataLoader(CellsDataset(4, seed=1), batch_size=2, collate_fn=collate_fn)
    for epoch in range(start_epoch, args.epochs):
        loss = train_one_epoch(model, optimizer, train_loader, device, scaler)
        lr_scheduler.step()
        print(f"epoch {epoch}: loss {loss:.3f} dice {evaluate(model, val_loader, device):.3f}")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "lr_scheduler": lr_scheduler.state_dict(), "scaler": scaler.state_dict(),
                    "epoch": epoch}, args.out)


if __name__ == "__main__":
    main()
