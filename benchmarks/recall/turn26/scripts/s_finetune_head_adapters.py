"""Transfer a pretrained encoder to a new task: bottleneck adapters per block, a new head.

    python s_finetune_head_adapters.py --pretrained enc.pt --num-classes 7
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ff = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        return x + self.ff(x)


class Encoder(nn.Module):
    def __init__(self, d_in=32, d=64, depth=3, num_classes=10):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(depth))
        self.fc = nn.Linear(d, num_classes)
        self.adapters = None

    def forward(self, x):
        h = self.inp(x)
        for i, blk in enumerate(self.blocks):
            h = blk(h)
            if self.adapters is not None:
                h = h + self.adapters[i](h)
        return self.fc(h)


def bottleneck(d, r=8):
    return nn.Sequential(nn.Linear(d, r), nn.ReLU(), nn.Linear(r, d))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pretrained", default="")
    ap.add_argument("--num-classes", type=int, default=7)
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = Encoder()
    if args.pretrained and os.path.exists(args.pretrained):
        model.load_state_dict(torch.load(args.pretrained, map_location="cpu"))
    model.adapters = [bottleneck(64) for _ in model.blocks]  # expect: DEV009
    model.to(device)

    for p in model.parameters():
        p.requires_grad_(False)
    model.fc = nn.Linear(64, args.num_classes)  # expect: DEV015

    trainable = [p for a in model.adapters for p in a.parameters()] + list(model.fc.parameters())
    opt = torch.optim.AdamW(trainable, lr=1e-3)
    x = torch.randn(256, 32)
    y = torch.randint(0, args.num_classes, (256,))
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
