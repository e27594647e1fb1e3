"""FixMatch-style semi-supervised training on a toy 2-D problem: a labelled
loader and a (larger) unlabelled loader zipped together, weak/strong
augmentations of the unlabelled batch, pseudo-labels above a threshold.
"""
import argparse
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_moons(n, noise=0.1, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.rand(n, generator=g) * torch.pi
    half = n // 2
    x = torch.zeros(n, 2)
    x[:half, 0], x[:half, 1] = torch.cos(t[:half]), torch.sin(t[:half])
    x[half:, 0], x[half:, 1] = 1 - torch.cos(t[half:]), 0.5 - torch.sin(t[half:])
    x += noise * torch.randn(n, 2, generator=g)
    y = torch.cat([torch.zeros(half), torch.ones(n - half)]).long()
    return x, y


class UnlabelledPairs(torch.utils.data.Dataset):
    """Returns a weak and a strong view of each unlabelled point."""

    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        p = self.x[i]
        weak = p + 0.02 * torch.randn(2)
        strong = p * (1 + 0.2 * torch.randn(2)) + 0.15 * torch.randn(2)
        return weak, strong


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--lambda-u", type=float, default=1.0)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    xl, yl = make_moons(32)
    xu, _ = make_moons(512, seed=1)
    labelled = DataLoader(TensorDataset(xl, yl), batch_size=8, shuffle=True)
    unlabelled = DataLoader(UnlabelledPairs(xu), batch_size=56, shuffle=True, drop_last=True)

    model = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)

    for epoch in range(args.epochs):
        model.train()
        n_masked = 0
        for (x, y), (u_weak, u_strong) in zip(itertools.cycle(labelled), unlabelled):
            x, y = x.to(device), y.to(device)
            u_weak = u_weak.to(device)

            sup_loss = F.cross_entropy(model(x), y)
            with torch.no_grad():
                probs = F.softmax(model(u_weak), dim=-1)
                conf, pseudo = probs.max(dim=-1)
                mask = (conf >= args.threshold).float()
            logits_s = model(u_strong)  # expect: DEV002
            unsup_loss = (F.cross_entropy(logits_s, pseudo, reduction="none") * mask).mean()
            loss = sup_loss + args.lambda_u * unsup_loss

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            n_masked += int(mask.sum())
        print(f"epoch {epoch}: loss {loss.item():.3f}, confident pseudo-labels {n_masked}")

    model.eval()
    with torch.no_grad():
        xt, yt = make_moons(200, seed=2)
        acc = (model(xt.to(device)).argmax(1).cpu() == yt).float().mean()
    print(f"test accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
