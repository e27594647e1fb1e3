import torch
import torch.nn as nn


class FeatureNCF(nn.Module):
    def __init__(self, n_users, n_items, item_cat, dim=32):
        super().__init__()
        n_cats = int(max(item_cat)) + 1
        self.tables = nn.ModuleDict({
            "user": nn.Embedding(n_users, dim),
            "item": nn.Embedding(n_items, dim),
            "cat": nn.Embedding(n_cats, dim),
        })
        self.register_buffer("item_cat", torch.as_tensor(item_cat, dtype=torch.long))
        self.mlp = nn.Sequential(nn.Linear(3 * dim, 64), nn.ReLU(), nn.Linear(64, 1))
        for emb in self.tables.values():
            nn.init.normal_(emb.weight, std=0.05)

    def item_vec(self, items):
        return self.tables["item"](items) + self.tables["cat"](self.item_cat[items])

    def forward(self, users, items):
        """users (B,), items (B, K) -> logits (B, K)"""
        u = self.tables["user"](users).unsqueeze(1).expand(-1, items.size(1), -1)
        v = self.item_vec(items)
        return self.mlp(torch.cat([u, v, u * v], -1)).squeeze(-1)
