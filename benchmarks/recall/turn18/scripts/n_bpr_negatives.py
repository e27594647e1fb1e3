#!/usr/bin/env python
"""Matrix factorisation with BPR loss and uniform negative sampling."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Interactions(Dataset):
    def __init__(self, n_users, n_items, n_obs=2000, seed=0):
        rng = np.random.default_rng(seed)
        self.users = rng.integers(0, n_users, n_obs)
        # skewed popularity
        self.items = np.minimum(rng.zipf(1.5, n_obs) - 1, n_items - 1)

    def __len__(self):
        return len(self.users)

    def __getitem__(self, i):
        return int(self.users[i]), int(self.items[i])


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        nn.init.normal_(self.user_emb.weight, std=0.01)
        nn.init.normal_(self.item_emb.weight, std=0.01)

    def score(self, users, items):
        return (self.user_emb(users) * self.item_emb(items)).sum(-1)


def sample_negatives(n_items, batch_size, k):
    return torch.randint(0, n_items, (batch_size, k))  # expect: DEV006


def bpr_loss(model, users, pos, neg):
    pos_scores = model.score(users, pos).unsqueeze(1)
    neg_scores = model.score(users.unsqueeze(1).expand_as(neg), neg)
    return -F.logsigmoid(pos_scores - neg_scores).mean()


def recall_at_k(model, users, pos, n_items, k=10):
    with torch.no_grad():
        all_items = torch.arange(n_items, device=users.device)
        scores = model.user_emb(users) @ model.item_emb(all_items).T
        topk = scores.topk(k, dim=1).indices
        return (topk == pos.unsqueeze(1)).any(1).float().mean().item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda")  # expect: DEV001
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--negatives", type=int, default=4)
    args = p.parse_args()

    n_users, n_items = 200, 300
    device = torch.device(args.device)
    loader = DataLoader(Interactions(n_users, n_items), batch_size=128, shuffle=True)
    model = MF(n_users, n_items).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)

    for epoch in range(args.epochs):
        for users, pos in loader:
            users, pos = users.to(device), pos.to(device)
            neg = sample_negatives(n_items, users.size(0), args.negatives)
            loss = bpr_loss(model, users, pos, neg)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} bpr {loss.item():.4f} recall@10 {recall_at_k(model, users, pos, n_items):.3f}")


if __name__ == "__main__":
    main()
