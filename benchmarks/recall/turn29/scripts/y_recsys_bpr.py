"""BPR matrix factorisation on implicit feedback, with uniform negative sampling."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class BPRMF(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        nn.init.normal_(self.user_emb.weight, std=0.05)
        nn.init.normal_(self.item_emb.weight, std=0.05)

    def score(self, users, items):
        return (self.user_emb(users) * self.item_emb(items)).sum(-1)


def bpr_loss(pos, neg):
    return -torch.nn.functional.logsigmoid(pos - neg).mean()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--dim", type=int, default=16)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    rng = np.random.default_rng(0)
    n_users, n_items = 50, 200
    interactions = np.stack([rng.integers(0, n_users, 2000), rng.integers(0, n_items, 2000)], 1)
    ds = TensorDataset(torch.from_numpy(interactions[:, 0]), torch.from_numpy(interactions[:, 1]))
    loader = DataLoader(ds, batch_size=128, shuffle=True)

    model = BPRMF(n_users, n_items, args.dim).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)

    for epoch in range(args.epochs):
        total = 0.0
        for users, pos_items in loader:
            users, pos_items = users.to(device), pos_items.to(device)
            neg_items = torch.randint(0, n_items, (users.size(0),))  # expect: DEV006
            loss = bpr_loss(model.score(users, pos_items), model.score(users, neg_items))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f}")

    # recall@10 against the training interactions
    model.eval()
    seen = {}
    for u, i in interactions:
        seen.setdefault(int(u), set()).add(int(i))
    with torch.no_grad():
        all_users = torch.arange(n_users, device=device)
        scores = model.user_emb(all_users) @ model.item_emb.weight.T
        top = np.argsort(-scores.numpy(), axis=1)[:, :10]  # expect: DEV011
    hits = [len(seen.get(u, set()) & set(top[u].tolist())) / 10 for u in range(n_users)]
    print("precision@10", float(np.mean(hits)))


if __name__ == "__main__":
    main()
