from dataclasses import dataclass

import numpy as np
import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class Config:
    n_users: int = 100
    n_items: int = 300
    dim: int = 32
    n_neg: int = 4
    batch_size: int = 256
    epochs: int = 2
    lr: float = 5e-3
    pop_alpha: float = 0.75


def item_popularity(item_ids, n_items, alpha):
    """word2vec-style unigram^alpha distribution for negative sampling."""
    counts = np.bincount(item_ids, minlength=n_items).astype(np.float64) + 1.0
    p = counts ** alpha
    return p / p.sum()
