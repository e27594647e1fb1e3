"""Matrix factorisation with BPR loss and sampled negatives; HR@10 / NDCG@10 in NumPy."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim=16):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        nn.init.normal_(self.user_emb.weight, std=0.1)
        nn.init.normal_(self.item_emb.weight, std=0.1)

    def forward(self, users, items):
        return (self.user_emb(users) * self.item_emb(items)).sum(-1)

    def score_all(self, users):
        return self.user_emb(users) @ self.item_emb.weight.t()


def ranking_metrics(topk, held_out):
    hits, ndcg = [], []
    for row, target in zip(topk, held_out):
        where = np.where(row == target)[0]
        hits.append(float(len(where) > 0))
        ndcg.append(1.0 / np.log2(where[0] + 2) if len(where) else 0.0)
    return np.mean(hits), np.mean(ndcg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=50)
    ap.add_argument("--items", type=int, default=80)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)

    pairs = np.stack([rng.integers(0, args.users, 800), rng.integers(0, args.items, 800)], axis=1)
    held_out = rng.integers(0, args.items, args.users)
    train_ds = TensorDataset(torch.from_numpy(pairs[:, 0]), torch.from_numpy(pairs[:, 1]))
    train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
    test_loader = DataLoader(TensorDataset(torch.arange(args.users)), batch_size=16)

    model = MF(args.users, args.items).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        for users, pos in train_loader:
            users, pos = users.to(device), pos.to(device)
            neg = torch.randint(0, args.items, (users.size(0),), device=device)
            loss = -F.logsigmoid(model(users, pos) - model(users, neg)).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} bpr {loss.item():.4f}")

    model.eval()
    seen = torch.zeros(args.users, args.items, dtype=torch.bool)
    seen[torch.from_numpy(pairs[:, 0]), torch.from_numpy(pairs[:, 1])] = True
    tops = []
    with torch.no_grad():
        for (users,) in test_loader:
            scores = model.score_all(users.to(device))
            rows, cols = seen[users].nonzero(as_tuple=True)
            scores[rows, cols] = float("-inf")
            tops.append(scores.topk(args.k, dim=1).indices.cpu().numpy())
    hr, ndcg = ranking_metrics(np.concatenate(tops), held_out)
    print(f"HR@{args.k}={hr:.3f} NDCG@{args.k}={ndcg:.3f}")


if __name__ == "__main__":
    main()
