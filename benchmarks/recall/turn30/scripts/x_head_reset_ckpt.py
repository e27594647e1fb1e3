"""Transfer a pretrained 1-D CNN to a new label set: load the checkpoint, re-initialize the head."""
import argparse
import math
import os

import torch
import torch.nn.functional as F
from torch import nn


class ScaledLinear(nn.Module):
    """Linear layer with a learnable output scale and its own reset_parameters."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(d_out, d_in))
        self.bias = nn.Parameter(torch.empty(d_out))
        self.scale = nn.Parameter(torch.empty(()))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1 / math.sqrt(self.weight.size(1))
        nn.init.uniform_(self.bias, -bound, bound)
        nn.init.ones_(self.scale)

    def forward(self, x):
        return self.scale * F.linear(x, self.weight, self.bias)


class SignalNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 16, 7, padding=3), nn.BatchNorm1d(16), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(16, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.head = ScaledLinear(32, n_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def synthetic(n, n_classes, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, n_classes, (n,), generator=g)
    t = torch.linspace(0, 1, 128)
    x = torch.sin(2 * math.pi * (y[:, None] + 1) * 3 * t) + 0.3 * torch.randn(n, 128, generator=g)
    return x.unsqueeze(1), y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pretrained", default="/tmp/x_signalnet_pretrained.pt")
    ap.add_argument("--num-classes", type=int, default=3)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    if not os.path.exists(args.pretrained):  # stand-in for the upstream pretraining run
        torch.save({"model": SignalNet(8).state_dict(), "classes": 8}, args.pretrained)

    ckpt = torch.load(args.pretrained)  # expect: DEV008
    model = SignalNet(ckpt["classes"])
    model.load_state_dict(ckpt["model"])
    model.to(device)

    for p in model.features[:4].parameters():
        p.requires_grad_(False)
    model.head = ScaledLinear(32, args.num_classes)  # expect: DEV015
    model.head.reset_parameters()

    x, y = synthetic(512, args.num_classes, seed=0)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    for epoch in range(3):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 64):
            idx = perm[i:i + 64]
            xb, yb = x[idx].to(device), y[idx].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
