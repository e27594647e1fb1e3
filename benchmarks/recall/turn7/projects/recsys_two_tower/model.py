"""User and item towers with a per-item popularity bias."""
import torch
import torch.nn as nn


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)
        self.user_mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.item_bias = torch.zeros(n_items)  # expect: DEV010

    def forward(self, user_ids, item_ids):
        u = self.user_mlp(self.users(user_ids))
        return (u * self.items(item_ids)).sum(-1) + self.item_bias[item_ids]
