"""User and item towers scored by a dot product."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.emb = nn.Embedding(n, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return F.normalize(self.mlp(self.emb(ids)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self, users, items, dim):
        super().__init__()
        self.user = Tower(users, dim)
        self.item = Tower(items, dim)
        self.temperature = nn.Parameter(torch.tensor(0.05))

    def score(self, users, items):
        """users: [B], items: [B, K] -> [B, K]"""
        u = self.user(users)
        v = self.item(items)
        return (u[:, None, :] * v).sum(-1) / self.temperature
