import numpy as np
import torch
from torch.utils.data import Dataset


def synthetic_interactions(cfg, seed=0):
    rng = np.random.default_rng(seed)
    liked = {u: set(rng.choice(cfg.n_items, size=10, replace=False).tolist()) for u in range(cfg.n_users)}
    test = {u: liked[u].pop() for u in range(cfg.n_users)}
    return liked, test


class PointwiseSampler(Dataset):
    """Each positive (u, i) comes with cfg.negatives unobserved items labelled 0."""

    def __init__(self, liked, cfg, seed=0):
        self.pairs = [(u, i) for u, items in liked.items() for i in items]
        self.liked, self.cfg = liked, cfg
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, idx):
        u, i = self.pairs[idx]
        items, labels = [i], [1.0]
        while len(items) < 1 + self.cfg.negatives:
            j = int(self.rng.integers(self.cfg.n_items))
            if j not in self.liked[u]:
                items.append(j)
                labels.append(0.0)
        return torch.full((len(items),), u), torch.tensor(items), torch.tensor(labels)


def flatten(batch):
    users, items, labels = batch
    return users.reshape(-1), items.reshape(-1), labels.reshape(-1)
