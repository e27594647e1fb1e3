"""SimCLR pre-training of a tiny MLP encoder with the NT-Xent loss."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    batch_size: int = 32
    temperature: float = 0.5
    epochs: int = 2
    lr: float = 1e-3
    in_dim: int = 20
    proj_dim: int = 16


class NTXentLoss(nn.Module):
    def __init__(self, batch_size, temperature):
        super().__init__()
        self.temperature = temperature
        n = 2 * batch_size
        self.self_mask = torch.eye(n, dtype=torch.bool)  # expect: DEV010

    def forward(self, z_i, z_j):
        b = z_i.size(0)
        z = F.normalize(torch.cat([z_i, z_j], dim=0), dim=1)
        sim = z @ z.t() / self.temperature
        sim = sim.masked_fill(self.self_mask, -1e9)
        targets = torch.cat([torch.arange(b, 2 * b), torch.arange(0, b)])  # expect: DEV006
        return F.cross_entropy(sim, targets)


class SimCLR(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(cfg.in_dim, 64), nn.ReLU(), nn.Linear(64, 32))
        self.projector = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, cfg.proj_dim))

    def forward(self, x):
        return self.projector(self.encoder(x))


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    keep = (torch.rand_like(x) > 0.2).float()
    return (x + noise) * keep


def train(cfg):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = TensorDataset(torch.randn(256, cfg.in_dim))
    loader = DataLoader(data, batch_size=cfg.batch_size, shuffle=True, drop_last=True)
    model = SimCLR(cfg).to(device)
    criterion = NTXentLoss(cfg.batch_size, cfg.temperature).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        total = 0.0
        for (x,) in loader:
            x = x.to(device)
            z_i, z_j = model(augment(x)), model(augment(x))
            loss = criterion(z_i, z_j)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}")


if __name__ == "__main__":
    train(Config())
