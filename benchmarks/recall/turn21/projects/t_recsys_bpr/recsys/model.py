import torch
import torch.nn as nn


class BiasedMF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.n_items = n_items
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        for emb in (self.user, self.item):
            nn.init.normal_(emb.weight, std=0.05)
        for emb in (self.user_bias, self.item_bias):
            nn.init.zeros_(emb.weight)

    def forward(self, users, items):
        dot = (self.user(users) * self.item(items)).sum(-1)
        return dot + self.user_bias(users).squeeze(-1) + self.item_bias(items).squeeze(-1)

    @torch.no_grad()
    def score_all(self, users):
        """Scores of every item for each user: (len(users), n_items)."""
        all_items = torch.arange(self.n_items)  # expect: DEV006
        item_vecs = self.item(all_items)
        item_b = self.item_bias(all_items).squeeze(-1)
        return self.user(users) @ item_vecs.t() + self.user_bias(users) + item_b
