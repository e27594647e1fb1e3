"""BYOL with a momentum target network, plus a feature memory bank used to monitor collapse."""
import copy
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Args:
    epochs: int = 2
    batch_size: int = 32
    base_tau: float = 0.99
    bank_size: int = 512
    lr: float = 1e-3
    init_from: str = ""        # optional path to an online-network state_dict


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(inplace=True), nn.Linear(h, o))


class Online(nn.Module):
    def __init__(self, dim=64, proj=32):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, dim, 3, 2, 1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = mlp(dim, 128, proj)

    def forward(self, x):
        return self.projector(self.encoder(x))


class MemoryBank(nn.Module):
    def __init__(self, size, dim):
        super().__init__()
        self.register_buffer("bank", F.normalize(torch.randn(size, dim), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def push(self, feats):
        n = feats.shape[0]
        p = int(self.ptr)
        idx = (torch.arange(n) + p) % self.bank.shape[0]        # CPU indices are fine here
        self.bank[idx] = F.normalize(feats, dim=1)
        self.ptr.fill_((p + n) % self.bank.shape[0])

    def random_negatives(self, k):
        idx = torch.randperm(self.bank.shape[0])[:k]
        return self.bank[idx]


def regression_loss(p, z):
    return 2 - 2 * F.cosine_similarity(p, z.detach(), dim=-1).mean()


def augment(x):
    flip = torch.rand(x.shape[0], device=x.device) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(-1), x)
    return x * torch.empty(x.shape[0], 1, 1, 1, device=x.device).uniform_(0.7, 1.3)


def main():
    args = Args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    online = Online()
    if args.init_from:
        online.load_state_dict(torch.load(args.init_from, map_location="cpu"))
    online.to(device)
    predictor = mlp(32, 128, 32).to(device)
    target = copy.deepcopy(online)
    for p in target.parameters():
        p.requires_grad_(False)
    bank = MemoryBank(args.bank_size, 32).to(device)

    data = torch.rand(256, 3, 32, 32)
    loader = DataLoader(TensorDataset(data), batch_size=args.batch_size, shuffle=True, drop_last=True)
    opt = torch.optim.Adam(list(online.parameters()) + list(predictor.parameters()), lr=args.lr)
    total_steps = args.epochs * len(loader)

    step = 0
    for epoch in range(args.epochs):
        for (x,) in loader:
            x = x.to(device)
            v1, v2 = augment(x), augment(x)
            p1, p2 = predictor(online(v1)), predictor(online(v2))
            with torch.no_grad():
                z1, z2 = target(v1), target(v2)
            loss = regression_loss(p1, z2) + regression_loss(p2, z1)
            opt.zero_grad()
            loss.backward()
            opt.step()

            tau = 1 - (1 - args.base_tau) * (math.cos(math.pi * step / total_steps) + 1) / 2
            with torch.no_grad():
                for pt, po in zip(target.parameters(), online.parameters()):
                    pt.mul_(tau).add_(po.detach(), alpha=1 - tau)
            bank.push(z1)
            step += 1

        with torch.no_grad():
            neg = bank.random_negatives(64)
            spread = (F.normalize(z1, dim=1) @ neg.t()).std().item()
        print(f"epoch {epoch} loss {loss.item():.4f} tau {tau:.4f} sim-spread {spread:.3f}")


if __name__ == "__main__":
    main()
