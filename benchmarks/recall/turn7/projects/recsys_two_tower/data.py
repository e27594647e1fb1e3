"""Implicit-feedback interactions with sampled negatives."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def interactions(n_users, n_items, n=2000, seed=0):
    g = torch.Generator().manual_seed(seed)
    users = torch.randint(0, n_users, (n,), generator=g)
    items = (users * 7 + torch.randint(0, 5, (n,), generator=g)) % n_items
    neg = torch.randint(0, n_items, (n,), generator=g)
    u = torch.cat([users, users])
    i = torch.cat([items, neg])
    y = torch.cat([torch.ones(n), torch.zeros(n)])
    return TensorDataset(u, i, y)


def loader(cfg, shuffle=True):
    return DataLoader(interactions(cfg.n_users, cfg.n_items), batch_size=cfg.batch_size, shuffle=shuffle)
