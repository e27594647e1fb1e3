import copy
import os
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from .data import NegativeSampler
from .metrics import hit_rate_at_k
from .model import FeatureNCF


@dataclass
class FoldConfig:
    dim: int = 32
    lr: float = 3e-3
    epochs: int = 3
    batch_size: int = 256
    negatives: int = 4


def fit_fold(cfg, train_pairs, val_history, val_targets, n_users, n_items, item_cat, device, ckpt_path):
    # validation users' remaining history is part of training (cold-start is a separate eval)
    all_train = np.concatenate([train_pairs, val_history])
    popularity = np.bincount(all_train[:, 1], minlength=n_items)
    sampler = NegativeSampler(n_items, popularity, device)
    seen = defaultdict(set)
    for u, i in val_history:
        seen[int(u)].add(int(i))
    val_users = sorted(val_targets)

    model = FeatureNCF(n_users, n_items, item_cat, cfg.dim).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loader = DataLoader(TensorDataset(torch.from_numpy(all_train[:, 0]), torch.from_numpy(all_train[:, 1])),
                        batch_size=cfg.batch_size, shuffle=True)

    best_hr = -1.0
    for epoch in range(cfg.epochs):
        model.train()
        for users, pos in loader:
            users, pos = users.to(device), pos.to(device)
            neg = sampler(len(users), cfg.negatives)
            items = torch.cat([pos.unsqueeze(1), neg], 1)
            labels = torch.zeros_like(items, dtype=torch.float32)
            labels[:, 0] = 1.0
            loss = F.binary_cross_entropy_with_logits(model(users, items), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        hr = hit_rate_at_k(model, val_users, val_targets, seen, n_items, device)
        if hr > best_hr:
            best_hr = hr
            torch.save(copy.deepcopy(model.state_dict()), ckpt_path)
    return best_hr


def load_best(ckpt_path, n_users, n_items, item_cat, dim, device):
    model = FeatureNCF(n_users, n_items, item_cat, dim)
    model.load_state_dict(torch.load(ckpt_path, map_location=device))
    return model.to(device).eval()
