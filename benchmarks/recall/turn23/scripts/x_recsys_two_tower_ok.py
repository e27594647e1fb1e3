"""Two-tower retrieval with in-batch and sampled negatives; resumable.

Sampled negatives are drawn on the device of the user ids, the positive
weight lives in the loss module (a buffer, moved with it), the optimizer
state is restored after the model is on its device, and the exported
top-k goes through the CPU before NumPy.
"""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.item_mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def users(self, ids):
        return F.normalize(self.user_emb(ids), dim=-1)

    def items(self, ids):
        return F.normalize(self.item_mlp(self.item_emb(ids)), dim=-1)

    def score(self, users, items):
        u = self.users(users)
        v = self.items(items)
        if v.dim() == 3:
            u = u.unsqueeze(1)
        return (u * v).sum(-1) * 10.0


def sample_negatives(n_items, users, k):
    return torch.randint(0, n_items, (users.size(0), k), device=users.device)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default="/tmp/x_two_tower_ok.pt")
    parser.add_argument("--n-users", type=int, default=50)
    parser.add_argument("--n-items", type=int, default=150)
    parser.add_argument("--negatives", type=int, default=4)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = TwoTower(args.n_users, args.n_items).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([float(args.negatives)])).to(device)
    step = 0
    if os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        step = state["step"]

    g = torch.Generator().manual_seed(step)
    for _ in range(args.steps):
        users = torch.randint(0, args.n_users, (32,), generator=g).to(device)
        pos = torch.randint(0, args.n_items, (32,), generator=g).to(device)
        neg = sample_negatives(args.n_items, users, args.negatives)
        pos_logits = model.score(users, pos)
        neg_logits = model.score(users, neg).flatten()
        logits = torch.cat([pos_logits, neg_logits])
        labels = torch.cat([torch.ones_like(pos_logits), torch.zeros_like(neg_logits)])
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, args.ckpt)

    model.eval()
    with torch.no_grad():
        all_items = model.items(torch.arange(args.n_items, device=device))
        all_users = model.users(torch.arange(args.n_users, device=device))
        topk = (all_users @ all_items.T).topk(10, dim=1).indices
    np.save("/tmp/x_topk_ok.npy", topk.cpu().numpy())
    print(f"step {step} loss {loss.item():.4f} topk {topk.shape}")


if __name__ == "__main__":
    main()
