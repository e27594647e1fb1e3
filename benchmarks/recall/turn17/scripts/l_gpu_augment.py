"""Batch-level augmentation done on the accelerator: mixup / cutmix (one of
them per batch) followed by grid-style random erasing. Labels become pairs
(y_a, y_b) with mixing weights, and the loss is mixed the same way.
"""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class BatchMixer:
    def __init__(self, mixup_alpha=0.4, cutmix_alpha=1.0, cutmix_prob=0.5):
        self.mixup_alpha = mixup_alpha
        self.cutmix_alpha = cutmix_alpha
        self.cutmix_prob = cutmix_prob

    def mixup(self, x, y):
        # one lambda per sample rather than per batch
        lam = torch.from_numpy(np.random.beta(self.mixup_alpha, self.mixup_alpha, size=x.size(0))).float()  # expect: DEV006
        perm = torch.randperm(x.size(0))
        lam_x = lam.view(-1, 1, 1, 1)
        mixed = lam_x * x + (1.0 - lam_x) * x[perm]
        return mixed, y, y[perm], lam

    def cutmix(self, x, y):
        lam = np.random.beta(self.cutmix_alpha, self.cutmix_alpha)
        H, W = x.shape[-2:]
        cut_h, cut_w = int(H * np.sqrt(1 - lam)), int(W * np.sqrt(1 - lam))
        cy, cx = np.random.randint(H), np.random.randint(W)
        y1, y2 = np.clip(cy - cut_h // 2, 0, H), np.clip(cy + cut_h // 2, 0, H)
        x1, x2 = np.clip(cx - cut_w // 2, 0, W), np.clip(cx + cut_w // 2, 0, W)

        mask = torch.zeros(1, 1, H, W)  # expect: DEV006
        mask[..., y1:y2, x1:x2] = 1.0
        perm = torch.randperm(x.size(0))
        mixed = x * (1.0 - mask) + x[perm] * mask
        lam = 1.0 - float((y2 - y1) * (x2 - x1)) / (H * W)  # exact area
        return mixed, y, y[perm], lam

    def __call__(self, x, y):
        if random.random() < self.cutmix_prob:
            return self.cutmix(x, y)
        return self.mixup(x, y)


def grid_erase(x, p=0.2, cell=4):
    B, _, H, W = x.shape
    keep = (torch.rand(B, 1, H // cell, W // cell, device=x.device) > p).type(torch.FloatTensor)  # expect: DEV021
    keep = F.interpolate(keep, size=(H, W), mode="nearest")
    return x * keep


def mixed_ce(logits, y_a, y_b, lam):
    ce_a = F.cross_entropy(logits, y_a, reduction="none")
    ce_b = F.cross_entropy(logits, y_b, reduction="none")
    return (lam * ce_a + (1.0 - lam) * ce_b).mean()


def build_model(n_classes):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, n_classes),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--no-erase", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    n_classes = 5
    y = torch.randint(0, n_classes, (600,))
    x = torch.randn(600, 3, 24, 24) + y.view(-1, 1, 1, 1) * 0.3
    loader = DataLoader(TensorDataset(x, y), batch_size=50, shuffle=True, drop_last=True)

    model = build_model(n_classes).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    mixer = BatchMixer()

    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for images, targets in loader:
            images, targets = images.to(device), targets.to(device)
            images, y_a, y_b, lam = mixer(images, targets)
            if not args.no_erase:
                images = grid_erase(images)
            loss = mixed_ce(model(images), y_a, y_b, lam)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch}: mixed loss {running / len(loader):.4f}")


if __name__ == "__main__":
    main()
