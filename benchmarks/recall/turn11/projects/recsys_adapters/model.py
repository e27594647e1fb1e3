"""Two-tower retrieval model: user and item embeddings, each followed by a small MLP tower whose
output passes through an optional adapter (identity until adapters.py attaches one).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.emb = nn.Embedding(n, d)
        self.mlp = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
        self.adapter = nn.Identity()

    def forward(self, idx):
        return F.normalize(self.adapter(self.mlp(self.emb(idx))), dim=-1)


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, d=32):
        super().__init__()
        self.user_tower = Tower(n_users, d)
        self.item_tower = Tower(n_items, d)
        self.n_items = n_items

    def score(self, users, items):
        return (self.user_tower(users) * self.item_tower(items)).sum(-1) * 10.0

    def all_scores(self, users):
        all_items = torch.arange(self.n_items, device=users.device)
        return self.user_tower(users) @ self.item_tower(all_items).t() * 10.0
