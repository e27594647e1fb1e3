from collections import defaultdict

import numpy as np
import torch


def synthetic_interactions(n_users=300, n_items=400, n_cats=6, per_user=15, seed=0):
    rng = np.random.default_rng(seed)
    item_cat = rng.integers(0, n_cats, n_items)
    fav = rng.integers(0, n_cats, n_users)
    pairs = []
    for u in range(n_users):
        pool = np.where(item_cat == fav[u])[0]
        extra = rng.integers(0, n_items, per_user // 3)
        items = np.concatenate([rng.choice(pool, per_user - len(extra), replace=False), extra])
        pairs += [(u, int(i)) for i in np.unique(items)]
    return np.array(pairs), item_cat


def user_folds(pairs, k, seed=0):
    """Folds over users, so validation users are never seen in training."""
    users = np.unique(pairs[:, 0])
    np.random.default_rng(seed).shuffle(users)
    for f, val_users in enumerate(np.array_split(users, k)):
        is_val = np.isin(pairs[:, 0], val_users)
        yield f, pairs[~is_val], pairs[is_val]


def split_last(pairs, seed=0):
    """Hold out one interaction per user (for the validation users' profiles)."""
    rng = np.random.default_rng(seed)
    by_user = defaultdict(list)
    for u, i in pairs:
        by_user[u].append(i)
    history, target = [], {}
    for u, items in by_user.items():
        items = list(items)
        rng.shuffle(items)
        target[u] = items[0]
        history += [(u, i) for i in items[1:]]
    return np.array(history), target


class NegativeSampler:
    def __init__(self, n_items, item_popularity, device, alpha=0.75):
        p = torch.as_tensor(item_popularity, dtype=torch.float32).clamp(min=1) ** alpha
        self.probs = (p / p.sum()).to(device)
        self.device = device

    def __call__(self, n, k=4):
        return torch.multinomial(self.probs, n * k, replacement=True).view(n, k)
