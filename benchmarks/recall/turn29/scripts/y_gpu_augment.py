"""Batch augmentation on the GPU (kornia-style module): random flips, brightness jitter, cutout, normalisation."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class BatchAugment(nn.Module):
    def __init__(self, p_flip=0.5, brightness=0.2, cutout=8, mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25)):
        super().__init__()
        self.p_flip, self.brightness, self.cutout = p_flip, brightness, cutout
        self.mean = torch.tensor(mean).view(1, 3, 1, 1)  # expect: DEV010
        self.register_buffer("std", torch.tensor(std).view(1, 3, 1, 1))

    @torch.no_grad()
    def forward(self, x):
        b, _, h, w = x.shape
        flip = torch.rand(b) < self.p_flip  # expect: DEV006
        x = torch.where(flip.view(b, 1, 1, 1), x.flip(-1), x)
        factor = 1.0 + (torch.rand(b, 1, 1, 1, device=x.device) * 2 - 1) * self.brightness
        x = (x * factor).clamp(0, 1)
        cy = torch.randint(0, h, (b,), device=x.device)
        cx = torch.randint(0, w, (b,), device=x.device)
        ys = torch.arange(h, device=x.device).view(1, h, 1)
        xs = torch.arange(w, device=x.device).view(1, 1, w)
        hole = ((ys - cy.view(b, 1, 1)).abs() < self.cutout // 2) & ((xs - cx.view(b, 1, 1)).abs() < self.cutout // 2)
        x = x.masked_fill(hole.unsqueeze(1), 0.0)
        return (x - self.mean) / self.std


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    model.to(device)
    augment = BatchAugment().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(torch.rand(128, 3, 32, 32), torch.randint(0, 10, (128,))), batch_size=32)

    for epoch in range(args.epochs):
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            x = augment(x)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
