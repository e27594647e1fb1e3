"""Validation loop of a road-scene segmenter with torchmetrics: per-class IoU and
pixel accuracy, ignore_index=255 for the unlabeled void class. Needs torchmetrics."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics import Accuracy, JaccardIndex

N_CLASSES, VOID = 8, 255


def build_metrics(device):
    pixel_acc = Accuracy(task="multiclass", num_classes=N_CLASSES, ignore_index=VOID).to(device)
    per_class_iou = JaccardIndex(task="multiclass", num_classes=N_CLASSES, ignore_index=VOID,  # expect: DEV019
                                 average="none")
    return pixel_acc, per_class_iou


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    pixel_acc, per_class_iou = build_metrics(device)
    for images, masks in loader:
        images, masks = images.to(device), masks.to(device)
        preds = model(images).argmax(1)
        pixel_acc.update(preds, masks)
        per_class_iou.update(preds, masks)
    ious = per_class_iou.compute()
    return pixel_acc.compute().item(), ious.mean().item(), ious.tolist()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, N_CLASSES, 1)).to(device)
    masks = torch.randint(0, N_CLASSES, (16, 24, 24))
    masks[:, -3:] = VOID
    loader = DataLoader(TensorDataset(torch.rand(16, 3, 24, 24), masks), batch_size=4)
    acc, miou, ious = validate(model, loader, device)
    print(f"pixel acc {acc:.3f} mIoU {miou:.3f}")
    print("per class", [round(v, 3) for v in ious])


if __name__ == "__main__":
    main()
