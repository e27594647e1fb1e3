"""BPR matrix factorisation on implicit feedback with uniform negative sampling.

python t_bpr_negsample.py --epochs 2 --dim 16
"""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class InteractionDataset(Dataset):
    """(user, positive item) pairs from an implicit-feedback log."""

    def __init__(self, pairs):
        self.pairs = pairs

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        u, it = self.pairs[i]
        return torch.tensor(u), torch.tensor(it)


class BPRMF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        nn.init.normal_(self.user.weight, std=0.05)
        nn.init.normal_(self.item.weight, std=0.05)

    def forward(self, users, items):
        return (self.user(users) * self.item(items)).sum(-1)

    def full_scores(self, users):
        return self.user(users) @ self.item.weight.t()


def bpr_loss(pos, neg):
    return -torch.nn.functional.logsigmoid(pos - neg).mean()


def hit_rate(model, held_out, device, k=10):
    model.eval()
    users = torch.tensor(sorted(held_out), device=device)
    with torch.no_grad():
        scores = model.full_scores(users)
        topk = scores.topk(k, dim=1).indices.numpy()  # expect: DEV011
    hits = [held_out[u] in row for u, row in zip(users.tolist(), topk)]
    return float(np.mean(hits))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--dim", type=int, default=16)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    n_users, n_items = 50, 80
    rng = random.Random(0)
    pairs = [(u, rng.randrange(n_items)) for u in range(n_users) for _ in range(6)]
    held_out = {u: rng.randrange(n_items) for u in range(n_users)}
    loader = DataLoader(InteractionDataset(pairs), batch_size=32, shuffle=True)

    model = BPRMF(n_users, n_items, args.dim).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)

    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for users, pos_items in loader:
            users, pos_items = users.to(device), pos_items.to(device)
            # one uniformly drawn negative per positive
            neg_items = torch.randint(0, n_items, (users.size(0),))  # expect: DEV006
            loss = bpr_loss(model(users, pos_items), model(users, neg_items))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f} HR@10 {hit_rate(model, held_out, device):.3f}")


if __name__ == "__main__":
    main()
