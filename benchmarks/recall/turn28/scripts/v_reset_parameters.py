"""Residual MLP with a cosine classifier: pre-train on the base classes, then
re-initialise a new head for the novel classes and fine-tune."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CosineClassifier(nn.Module):
    def __init__(self, d, n_classes, init_scale=10.0):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_classes, d))
        self.scale = nn.Parameter(torch.tensor(init_scale))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))

    def forward(self, h):
        return self.scale * F.normalize(h, dim=-1) @ F.normalize(self.weight, dim=-1).t()


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc = nn.Linear(d, d)

    def reset_parameters(self):
        self.norm.reset_parameters()
        nn.init.zeros_(self.fc.bias)
        nn.init.normal_(self.fc.weight, std=0.02)

    def forward(self, x):
        return x + F.gelu(self.fc(self.norm(x)))


class ResidualMLP(nn.Module):
    def __init__(self, d_in, d_hidden, n_blocks, n_classes):
        super().__init__()
        self.stem = nn.Linear(d_in, d_hidden)
        self.blocks = [Block(d_hidden) for _ in range(n_blocks)]  # expect: DEV009
        self.head = CosineClassifier(d_hidden, n_classes)
        self.reset_parameters()

    def reset_parameters(self):
        self.stem.reset_parameters()
        for block in self.blocks:
            block.reset_parameters()
        self.head.reset_parameters()

    def all_parameters(self):
        return list(self.parameters()) + [p for b in self.blocks for p in b.parameters()]

    def features(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = block(h)
        return h

    def forward(self, x):
        return self.head(self.features(x))


def make_loader(n, d, classes, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.tensor(classes)[torch.randint(0, len(classes), (n,), generator=g)]
    centers = torch.randn(max(classes) + 1, d, generator=torch.Generator().manual_seed(99))
    x = centers[y] + 0.5 * torch.randn(n, d, generator=g)
    return DataLoader(TensorDataset(x, y - min(classes)), batch_size=32, shuffle=True)


def run(model, params, loader, device, epochs, lr):
    opt = torch.optim.SGD(params, lr=lr, momentum=0.9)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    model = ResidualMLP(d_in=20, d_hidden=48, n_blocks=3, n_classes=6).to(device)
    base = make_loader(600, 20, list(range(6)), 0)
    print("base loss", run(model, model.all_parameters(), base, device, args.epochs, 0.05))

    model.head = CosineClassifier(48, 4)  # expect: DEV015
    for p in model.stem.parameters():
        p.requires_grad_(False)
    novel = make_loader(80, 20, list(range(6, 10)), 1)
    print("novel loss", run(model, model.head.parameters(), novel, device, args.epochs * 3, 0.02))


if __name__ == "__main__":
    main()
