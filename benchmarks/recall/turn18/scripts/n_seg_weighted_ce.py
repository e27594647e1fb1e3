"""Fine-tune a small segmentation net on a new label set with median-frequency weights."""
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


@dataclass
class SegConfig:
    num_classes: int = 6
    ignore_index: int = 255
    lr: float = 1e-3
    epochs: int = 2
    batch_size: int = 4
    image_size: tuple = field(default=(32, 32))


class ToySegDataset(Dataset):
    def __init__(self, cfg, n=16, seed=0):
        rng = np.random.default_rng(seed)
        h, w = cfg.image_size
        self.images = rng.normal(size=(n, 3, h, w)).astype(np.float32)
        masks = rng.integers(0, cfg.num_classes, size=(n, h, w))
        masks[:, :2, :] = cfg.ignore_index  # unlabeled border
        self.masks = masks.astype(np.int64)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return torch.from_numpy(self.images[i]), torch.from_numpy(self.masks[i])


class TinySegNet(nn.Module):
    def __init__(self, num_classes=21):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.classifier = nn.Conv2d(32, num_classes, 1)

    def forward(self, x):
        h, w = x.shape[-2:]
        logits = self.classifier(self.encoder(x))
        return F.interpolate(logits, size=(h, w), mode="bilinear", align_corners=False)


def median_frequency_weights(dataset, cfg):
    counts = np.zeros(cfg.num_classes)
    for _, m in dataset:
        m = m.numpy()
        m = m[m != cfg.ignore_index]
        counts += np.bincount(m, minlength=cfg.num_classes)
    freq = counts / counts.sum()
    return np.median(freq) / np.maximum(freq, 1e-8)


def build_criterion(cfg, class_weights):
    w = torch.as_tensor(class_weights, dtype=torch.float32)
    return nn.CrossEntropyLoss(weight=w, ignore_index=cfg.ignore_index)  # expect: DEV012


def adapt_head(model, num_classes):
    in_ch = model.classifier.in_channels
    model.classifier = nn.Conv2d(in_ch, num_classes, kernel_size=1)  # expect: DEV015
    return model


def train(cfg):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = ToySegDataset(cfg)
    loader = DataLoader(ds, batch_size=cfg.batch_size, shuffle=True)

    model = TinySegNet(num_classes=21)  # "pretrained" on VOC
    model.to(device)
    model = adapt_head(model, cfg.num_classes)
    criterion = build_criterion(cfg, median_frequency_weights(ds, cfg))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        for images, masks in loader:
            images, masks = images.to(device), masks.to(device)
            logits = model(images)
            loss = criterion(logits, masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train(SegConfig())
