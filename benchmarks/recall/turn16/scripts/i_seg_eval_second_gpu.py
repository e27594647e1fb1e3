"""Evaluate a segmentation checkpoint: pixel accuracy, per-class IoU, mIoU.

    python i_seg_eval_second_gpu.py --ckpt runs/best.pt
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CLASSES = ["background", "building", "road", "water", "vegetation"]
IGNORE = 255


class SegNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 24, 3, 2, 1), nn.BatchNorm2d(24), nn.ReLU(),
            nn.Conv2d(24, 48, 3, 2, 1), nn.BatchNorm2d(48), nn.ReLU(),
            nn.Conv2d(48, 48, 3, 1, 2, dilation=2), nn.ReLU(),
        )
        self.classifier = nn.Conv2d(48, num_classes, 1)

    def forward(self, x):
        return self.classifier(self.features(x))


def fake_tiles(n=24, size=64, num_classes=5):
    g = torch.Generator().manual_seed(7)
    masks = torch.randint(0, num_classes, (n, size // 8, size // 8), generator=g)
    masks = F.interpolate(masks[:, None].float(), size=(size, size), mode="nearest")[:, 0].long()
    images = F.one_hot(masks, num_classes).permute(0, 3, 1, 2)[:, :3].float()
    images = images + 0.2 * torch.randn(images.shape, generator=g)
    masks[:, -4:, :] = IGNORE
    return TensorDataset(images, masks)


def update_confusion(conf, pred, target, num_classes):
    valid = target != IGNORE
    idx = num_classes * target[valid] + pred[valid]
    conf += torch.bincount(idx, minlength=num_classes ** 2).reshape(num_classes, num_classes)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ckpt", default="")
    p.add_argument("--batch-size", type=int, default=8)
    args = p.parse_args()

    # GPU 0 is taken by the training job, evaluate on the second card
    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018

    num_classes = len(CLASSES)
    model = SegNet(num_classes)
    if args.ckpt:
        model.load_state_dict(torch.load(args.ckpt, map_location=device)["model"])
    model.to(device).eval()
    criterion = nn.CrossEntropyLoss(ignore_index=IGNORE)
    loader = DataLoader(fake_tiles(num_classes=num_classes), batch_size=args.batch_size)

    conf = torch.zeros(num_classes, num_classes, dtype=torch.long, device=device)
    total_loss, n = 0.0, 0
    with torch.no_grad():
        for images, masks in loader:
            images = images.to(device)
            masks.to(device)  # expect: DEV005
            logits = model(images)
            logits = F.interpolate(logits, size=masks.shape[-2:], mode="bilinear", align_corners=False)
            total_loss += criterion(logits, masks).item() * images.size(0)  # also: DEV004
            n += images.size(0)
            update_confusion(conf, logits.argmax(1), masks, num_classes)  # also: DEV004

    conf = conf.cpu().double()
    iou = conf.diag() / (conf.sum(0) + conf.sum(1) - conf.diag()).clamp(min=1)
    print(f"loss {total_loss / n:.4f}  pixel acc {(conf.diag().sum() / conf.sum()).item():.3f}")
    for name, v in zip(CLASSES, iou.tolist()):
        print(f"  {name:12s} IoU {v:.3f}")
    print(f"mIoU {iou.mean().item():.3f}")


if __name__ == "__main__":
    main()
