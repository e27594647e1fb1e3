"""Segmentation fine-tuning with accelerate and a torchmetrics Jaccard index accumulated over the
validation set."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset
from torchmetrics.classification import MulticlassJaccardIndex


class ShapesDataset(Dataset):
    def __init__(self, n, size=64, classes=3, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.rand(n, 3, size, size, generator=g)
        self.masks = (self.images.mean(1) * classes).long().clamp(max=classes - 1)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.masks[i]


class TinyUNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.head = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        return self.head(F.relu(self.up(self.mid(self.down(x)))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--classes", type=int, default=3)
    args = parser.parse_args()

    accelerator = Accelerator()
    model = TinyUNet(args.classes)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader = DataLoader(ShapesDataset(512), batch_size=16, shuffle=True)
    val_loader = DataLoader(ShapesDataset(128, seed=1), batch_size=16)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)
    miou = MulticlassJaccardIndex(num_classes=args.classes)  # expect: DEV019

    for epoch in range(args.epochs):
        model.train()
        for x, m in train_loader:
            loss = F.cross_entropy(model(x), m)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
        model.eval()
        with torch.no_grad():
            for x, m in val_loader:
                pred = model(x).argmax(1)
                pred, m = accelerator.gather_for_metrics((pred, m))
                miou.update(pred, m)
        accelerator.print(f"epoch {epoch}: mIoU {miou.compute().item():.3f}")
        miou.reset()


if __name__ == "__main__":
    main()
