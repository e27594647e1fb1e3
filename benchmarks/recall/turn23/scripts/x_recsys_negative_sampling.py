"""Implicit-feedback matrix factorisation with sampled negatives.

Each observed (user, item) pair is scored against `k` uniformly sampled
negative items; positives are up-weighted by k in the BCE loss. Hit@10 on a
leave-one-out split.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    n_users: int = 60
    n_items: int = 200
    dim: int = 16
    negatives: int = 4
    batch_size: int = 64
    epochs: int = 2
    lr: float = 1e-2
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


def synthetic_interactions(cfg, per_user=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    users = torch.arange(cfg.n_users).repeat_interleave(per_user)
    items = torch.randint(0, cfg.n_items, (users.numel(),), generator=g)
    return users, items


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.item_bias = nn.Embedding(n_items, 1)

    def score(self, users, items):
        u = self.user_emb(users)
        if items.dim() == 2:
            u = u.unsqueeze(1)
        return (u * self.item_emb(items)).sum(-1) + self.item_bias(items).squeeze(-1)


def sample_negatives(n_items, users, k):
    return torch.randint(0, n_items, (users.size(0), k))  # expect: DEV006


def train_epoch(model, loader, criterion, optimizer, cfg):
    model.train()
    total = 0.0
    for users, pos in loader:
        users, pos = users.to(cfg.device), pos.to(cfg.device)
        neg = sample_negatives(cfg.n_items, users, cfg.negatives)
        pos_logits = model.score(users, pos)
        neg_logits = model.score(users, neg).flatten()
        logits = torch.cat([pos_logits, neg_logits])
        labels = torch.cat([torch.ones_like(pos_logits), torch.zeros_like(neg_logits)])
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


@torch.no_grad()
def hit_rate(model, held_out_users, held_out_items, k=10):
    scores = model.user_emb(held_out_users) @ model.item_emb.weight.T
    scores = scores + model.item_bias.weight.T
    topk = scores.topk(k, dim=1).indices
    return (topk == held_out_items.unsqueeze(1)).any(1).float().mean().item()


def main():
    cfg = Config()
    users, items = synthetic_interactions(cfg)
    loader = DataLoader(TensorDataset(users, items), batch_size=cfg.batch_size, shuffle=True)

    model = MF(cfg.n_users, cfg.n_items, cfg.dim).to(cfg.device)
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([float(cfg.negatives)]))  # expect: DEV012
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        loss = train_epoch(model, loader, criterion, optimizer, cfg)
        print(f"epoch {epoch} loss {loss:.4f}")

    eval_users = torch.arange(cfg.n_users, device=cfg.device)
    eval_items = torch.randint(0, cfg.n_items, (cfg.n_users,), device=cfg.device)
    print(f"hit@10 {hit_rate(model, eval_users, eval_items):.3f}")


if __name__ == "__main__":
    main()
