"""Binary-plus-background segmentation with a combined weighted CE + soft Dice
loss, upsampled logits and a colour-coded prediction dump.
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

PALETTE = [[0, 0, 0], [230, 25, 75], [60, 180, 75]]
IGNORE_INDEX = -1


class Blobs(Dataset):
    def __init__(self, n, size=48, seed=0):
        rng = np.random.default_rng(seed)
        yy, xx = np.mgrid[:size, :size]
        self.items = []
        for _ in range(n):
            mask = np.zeros((size, size), dtype=np.int64)
            for cls in (1, 2):
                cy, cx, r = rng.integers(8, size - 8), rng.integers(8, size - 8), rng.integers(4, 9)
                mask[(yy - cy) ** 2 + (xx - cx) ** 2 < r * r] = cls
            mask[rng.random((size, size)) < 0.01] = IGNORE_INDEX   # unlabeled pixels
            img = np.stack([mask == 1, mask == 2, mask == 0]).astype(np.float32)
            img += rng.normal(0, 0.3, img.shape).astype(np.float32)
            self.items.append((torch.from_numpy(img), torch.from_numpy(mask)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class CEDiceLoss(nn.Module):
    def __init__(self, class_weights, ignore_index=IGNORE_INDEX, dice_weight=0.5):
        super().__init__()
        self.register_buffer("class_weights", torch.as_tensor(class_weights, dtype=torch.float32))
        self.ignore_index = ignore_index
        self.dice_weight = dice_weight

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, weight=self.class_weights, ignore_index=self.ignore_index)
        valid = (target != self.ignore_index).unsqueeze(1).float()
        onehot = F.one_hot(target.clamp(min=0), logits.size(1)).permute(0, 3, 1, 2).float()
        probs = logits.softmax(1) * valid
        inter = (probs * onehot * valid).sum((0, 2, 3))
        union = probs.sum((0, 2, 3)) + (onehot * valid).sum((0, 2, 3))
        dice = 1 - ((2 * inter + 1) / (union + 1)).mean()
        return ce + self.dice_weight * dice


class SmallSegNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, 1, 1), nn.ReLU(),
        )
        self.head = nn.Conv2d(32, classes, 1)

    def forward(self, x):
        logits = self.head(self.body(x))
        return F.interpolate(logits, size=x.shape[-2:], mode="bilinear", align_corners=False)


def colorize(pred):
    palette = torch.tensor(PALETTE, dtype=torch.uint8, device=pred.device)
    return palette[pred].cpu().numpy()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--out", default=tempfile.mkdtemp(prefix="blobs_"))
    args = p.parse_args()

    use_cuda = torch.cuda.is_available()
    torch.manual_seed(0)
    train_loader = DataLoader(Blobs(64, seed=0), batch_size=8, shuffle=True)
    val_loader = DataLoader(Blobs(8, seed=1), batch_size=8)

    model = SmallSegNet()
    criterion = CEDiceLoss(class_weights=[0.2, 1.0, 1.0])
    if use_cuda:
        model.cuda()
        criterion.cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(args.epochs):
        model.train()
        for img, mask in train_loader:
            if use_cuda:
                img, mask = img.cuda(non_blocking=True), mask.cuda(non_blocking=True)
            loss = criterion(model(img), mask)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    model.eval()
    img, mask = next(iter(val_loader))
    if use_cuda:
        img = img.cuda()
    with torch.no_grad():
        pred = model(img).argmax(1)
    gt = mask.clamp(min=0)
    np.save(os.path.join(args.out, "pred_rgb.npy"), colorize(pred))
    np.save(os.path.join(args.out, "gt_rgb.npy"), colorize(gt))
    acc = (pred.cpu()[mask != IGNORE_INDEX] == mask[mask != IGNORE_INDEX]).float().mean().item()
    print(f"val pixel acc {acc:.3f}  -> {args.out}")


if __name__ == "__main__":
    main()
