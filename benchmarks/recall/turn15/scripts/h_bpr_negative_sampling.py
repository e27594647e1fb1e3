"""Matrix factorisation with BPR loss and uniform negative sampling (implicit feedback).

Synthetic users/items with latent clusters; evaluation is leave-one-out HR@10.
"""
import argparse
from collections import defaultdict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Interactions(Dataset):
    def __init__(self, pairs):
        self.users = torch.as_tensor(pairs[:, 0], dtype=torch.long)
        self.items = torch.as_tensor(pairs[:, 1], dtype=torch.long)

    def __len__(self):
        return len(self.users)

    def __getitem__(self, i):
        return self.users[i], self.items[i]


class UniformNegativeSampler:
    """Draws one negative per (user, positive) pair, rejecting items the user has seen."""

    def __init__(self, n_items, user_pos, max_tries=10, seed=0):
        self.n_items = n_items
        self.user_pos = user_pos
        self.max_tries = max_tries
        self.rng = np.random.default_rng(seed)

    def sample(self, users):
        users = users.tolist()
        negs = self.rng.integers(0, self.n_items, size=len(users))
        for k, u in enumerate(users):
            tries = 0
            while negs[k] in self.user_pos[u] and tries < self.max_tries:
                negs[k] = self.rng.integers(0, self.n_items)
                tries += 1
        return torch.from_numpy(negs)  # expect: DEV006


class BPRMF(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.item_bias = nn.Embedding(n_items, 1)
        nn.init.normal_(self.user_emb.weight, std=0.1)
        nn.init.normal_(self.item_emb.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)

    def score(self, users, items):
        return (self.user_emb(users) * self.item_emb(items)).sum(-1) + self.item_bias(items).squeeze(-1)

    def forward(self, users, pos, neg):
        return self.score(users, pos), self.score(users, neg)

    def all_scores(self, users):
        return self.user_emb(users) @ self.item_emb.weight.T + self.item_bias.weight.T


def bpr_loss(pos_scores, neg_scores):
    return -F.logsigmoid(pos_scores - neg_scores).mean()


def synthetic(n_users=300, n_items=500, per_user=20, k=5, seed=0):
    rng = np.random.default_rng(seed)
    user_c = rng.integers(0, k, n_users)
    item_c = rng.integers(0, k, n_items)
    pairs = []
    for u in range(n_users):
        same = np.where(item_c == user_c[u])[0]
        other = np.where(item_c != user_c[u])[0]
        chosen = np.concatenate([rng.choice(same, int(per_user * 0.8), replace=False),
                                 rng.choice(other, per_user - int(per_user * 0.8), replace=False)])
        pairs += [(u, i) for i in chosen]
    pairs = np.array(pairs)
    rng.shuffle(pairs)
    # leave-one-out: last interaction of each user goes to test
    test, train, seen = {}, [], set()
    for u, i in pairs[::-1]:
        if u not in seen:
            test[u] = i
            seen.add(u)
        else:
            train.append((u, i))
    return np.array(train), test


def hit_rate(model, train_pos, test, n_items, device, k=10):
    model.eval()
    users = torch.tensor(sorted(test), device=device)
    with torch.no_grad():
        scores = model.all_scores(users)
        for row, u in enumerate(users.tolist()):
            scores[row, list(train_pos[u])] = -1e9
        topk = scores.topk(k, dim=1).indices.cpu().numpy()
    hits = [test[u] in topk[row] for row, u in enumerate(users.tolist())]
    return float(np.mean(hits))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--dim", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    n_users, n_items = 300, 500
    train_pairs, test = synthetic(n_users, n_items)
    train_pos = defaultdict(set)
    for u, i in train_pairs:
        train_pos[u].add(i)

    loader = DataLoader(Interactions(train_pairs), batch_size=args.batch_size, shuffle=True)
    sampler = UniformNegativeSampler(n_items, train_pos)
    model = BPRMF(n_users, n_items, args.dim).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    # quick shape check on one batch before the real loop
    users, pos_items = next(iter(loader))
    users, pos_items = users.to(device), pos_items.to(device)  # expect: DEV003
    print("batch:", users.shape, pos_items.shape, "HR@10 at init:",
          round(hit_rate(model, train_pos, test, n_items, device), 4))

    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for users, pos_items in loader:
            neg_items = sampler.sample(users)
            pos_s, neg_s = model(users, pos_items, neg_items)  # also: DEV002
            loss = bpr_loss(pos_s, neg_s) + 1e-5 * model.user_emb.weight.pow(2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        hr = hit_rate(model, train_pos, test, n_items, device)
        print(f"epoch {epoch}: loss {total / len(loader):.4f} HR@10 {hr:.4f}")


if __name__ == "__main__":
    main()
