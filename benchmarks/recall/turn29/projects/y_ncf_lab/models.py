import torch
import torch.nn as nn


class NCF(nn.Module):
    """GMF + MLP towers (He et al. 2017) with a popularity sampler for negatives."""

    def __init__(self, cfg, item_pop):
        super().__init__()
        self.n_neg = cfg.n_neg
        self.user_gmf = nn.Embedding(cfg.n_users, cfg.dim)
        self.item_gmf = nn.Embedding(cfg.n_items, cfg.dim)
        self.user_mlp = nn.Embedding(cfg.n_users, cfg.dim)
        self.item_mlp = nn.Embedding(cfg.n_items, cfg.dim)
        self.mlp = nn.Sequential(nn.Linear(2 * cfg.dim, cfg.dim), nn.ReLU(), nn.Linear(cfg.dim, cfg.dim // 2), nn.ReLU())
        self.out = nn.Linear(cfg.dim + cfg.dim // 2, 1)
        self.neg_probs = torch.tensor(item_pop, dtype=torch.float32)  # expect: DEV010

    def sample_negatives(self, users):
        neg = torch.multinomial(self.neg_probs, users.numel() * self.n_neg, replacement=True)
        return users.repeat_interleave(self.n_neg), neg

    def forward(self, users, items):
        gmf = self.user_gmf(users) * self.item_gmf(items)
        mlp = self.mlp(torch.cat([self.user_mlp(users), self.item_mlp(items)], dim=-1))
        return self.out(torch.cat([gmf, mlp], dim=-1)).squeeze(-1)
