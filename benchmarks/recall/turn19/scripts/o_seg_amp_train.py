"""Semantic segmentation (3 classes: background / road / building) with AMP.

Synthetic aerial-like tiles so it runs anywhere. Validation mIoU via torchmetrics.
"""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from torchmetrics.classification import MulticlassJaccardIndex


@dataclass
class Config:
    num_classes: int = 3
    class_weights: list = field(default_factory=lambda: [0.2, 1.0, 1.5])
    ignore_index: int = 255
    epochs: int = 2
    batch_size: int = 8
    lr: float = 1e-3
    amp: bool = True
    tile: int = 32


class TileDataset(Dataset):
    def __init__(self, n, tile, seed):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 3, tile, tile, generator=g) * 0.2
        self.masks = torch.zeros(n, tile, tile, dtype=torch.long)
        for i in range(n):
            r = int(torch.randint(4, tile - 4, (1,), generator=g))
            self.images[i, 0, r - 2:r + 2, :] += 0.8
            self.masks[i, r - 2:r + 2, :] = 1
            c = int(torch.randint(4, tile - 12, (1,), generator=g))
            self.images[i, 2, c:c + 8, c:c + 8] += 0.8
            self.masks[i, c:c + 8, c:c + 8] = 2
            self.masks[i, 0, :] = 255  # border pixels are unlabeled

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.masks[i]


class MiniUNet(nn.Module):
    def __init__(self, num_classes, ch=16):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.BatchNorm2d(2 * ch), nn.ReLU())
        self.dec = nn.Sequential(nn.Conv2d(3 * ch, ch, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(ch, num_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        d = F.interpolate(e2, scale_factor=2, mode="bilinear", align_corners=False)
        return self.head(self.dec(torch.cat([d, e1], dim=1)))


def make_criterion(cfg):
    weights = torch.tensor(cfg.class_weights, dtype=torch.float32)
    return nn.CrossEntropyLoss(weight=weights, ignore_index=cfg.ignore_index)  # expect: DEV012


class Evaluator:
    def __init__(self, cfg):
        self.miou = MulticlassJaccardIndex(num_classes=cfg.num_classes, ignore_index=cfg.ignore_index)  # expect: DEV019

    @torch.no_grad()
    def run(self, model, loader, device):
        model.eval()
        self.miou.reset()
        for images, masks in loader:
            images, masks = images.to(device), masks.to(device)
            preds = model(images).argmax(dim=1)
            self.miou.update(preds, masks)
        model.train()
        return self.miou.compute().item()


def main():
    cfg = Config()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = cfg.amp and device.type == "cuda"

    train_loader = DataLoader(TileDataset(64, cfg.tile, 0), batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(TileDataset(16, cfg.tile, 1), batch_size=cfg.batch_size)

    model = MiniUNet(cfg.num_classes).to(device)
    criterion = make_criterion(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    evaluator = Evaluator(cfg)

    for epoch in range(cfg.epochs):
        for images, masks in train_loader:
            images = images.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                logits = model(images)
                loss = criterion(logits, masks)  # expect: DEV004
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        print(f"epoch {epoch}: loss {loss.item():.4f}  val mIoU {evaluator.run(model, val_loader, device):.3f}")


if __name__ == "__main__":
    main()
