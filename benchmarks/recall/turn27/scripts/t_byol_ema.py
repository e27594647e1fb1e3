"""BYOL: online network with a predictor, EMA target network, no negatives."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class Online(nn.Module):
    def __init__(self, in_dim=30, feat=32, proj=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, feat))
        self.projector = mlp(feat, 64, proj)
        self.predictor = mlp(proj, 64, proj)

    def project(self, x):
        return self.projector(self.backbone(x))

    def forward(self, x):
        return self.predictor(self.project(x))


def byol_loss(p, z):
    return 2 - 2 * F.cosine_similarity(p, z.detach(), dim=-1).mean()


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.05 * torch.randn_like(x)


def main(epochs=2, base_tau=0.99):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    loader = DataLoader(TensorDataset(torch.randn(200, 30)), batch_size=25, shuffle=True)

    online = Online()
    target = copy.deepcopy(online)  # expect: DEV016
    for p in target.parameters():
        p.requires_grad_(False)
    online.to(device)
    opt = torch.optim.Adam(online.parameters(), lr=3e-4)

    total_steps = epochs * len(loader)
    step = 0
    for epoch in range(epochs):
        for (x,) in loader:
            v1 = augment(x).to(device)
            v2 = augment(x)
            v2.to(device)  # expect: DEV005
            p1, p2 = online(v1), online(v2)  # also: DEV002
            with torch.no_grad():
                z1, z2 = target.project(v1), target.project(v2)
            loss = byol_loss(p1, z2) + byol_loss(p2, z1)
            opt.zero_grad()
            loss.backward()
            opt.step()

            tau = 1 - (1 - base_tau) * (math.cos(math.pi * step / total_steps) + 1) / 2
            with torch.no_grad():
                for po, pt in zip(online.parameters(), target.parameters()):
                    pt.mul_(tau).add_(po, alpha=1 - tau)
            step += 1
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
