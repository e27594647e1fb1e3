"""Multiclass soft-Dice + cross-entropy for a toy cell-segmentation task."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SoftDiceLoss(nn.Module):
    def __init__(self, num_classes, smooth=1.0, skip_background=True):
        super().__init__()
        self.num_classes = num_classes
        self.smooth = smooth
        self.skip_background = skip_background

    def forward(self, logits, target):
        probs = logits.softmax(dim=1)
        one_hot = torch.zeros(probs.shape).scatter_(1, target.unsqueeze(1), 1.0)  # expect: DEV006
        dims = (0, 2, 3)
        inter = (probs * one_hot).sum(dims)
        denom = probs.sum(dims) + one_hot.sum(dims)
        dice = (2 * inter + self.smooth) / (denom + self.smooth)
        if self.skip_background:
            dice = dice[1:]
        return 1.0 - dice.mean()


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.down = conv_block(1, 16)
        self.pool = nn.MaxPool2d(2)
        self.mid = conv_block(16, 32)
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.dec = conv_block(32, 16)
        self.out = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        d = self.down(x)
        m = self.mid(self.pool(d))
        u = self.up(m)
        return self.out(self.dec(torch.cat([u, d], dim=1)))


def synthetic(n=16, size=32, num_classes=3):
    g = torch.Generator().manual_seed(1)
    imgs = torch.rand(n, 1, size, size, generator=g)
    masks = (imgs[:, 0] * num_classes).long().clamp(max=num_classes - 1)
    return imgs, masks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--dice-weight", type=float, default=0.5)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()

    device = "cpu" if args.cpu or not torch.cuda.is_available() else "cuda"
    imgs, masks = synthetic()
    loader = DataLoader(TensorDataset(imgs, masks), batch_size=4, shuffle=True)

    model = TinyUNet().to(device)
    dice = SoftDiceLoss(num_classes=3, smooth=1.0)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

    for epoch in range(args.epochs):
        for x, m in loader:
            x = x.to(device)
            m.to(device)  # expect: DEV005
            logits = model(x)
            loss = F.cross_entropy(logits, m) + args.dice_weight * dice(logits, m)  # also: DEV004
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
