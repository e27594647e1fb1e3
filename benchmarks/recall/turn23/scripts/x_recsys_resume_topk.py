"""Resume training of a two-tower retrieval model from a checkpoint, then
export the top-k recommendations per user as a NumPy array for the serving
team."""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.emb = nn.Embedding(n, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return F.normalize(self.mlp(self.emb(ids)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim=32, temperature=0.1):
        super().__init__()
        self.user_tower = Tower(n_users, dim)
        self.item_tower = Tower(n_items, dim)
        self.temperature = temperature

    def forward(self, users, items):
        u, v = self.user_tower(users), self.item_tower(items)
        return u @ v.T / self.temperature  # in-batch negatives


def save_checkpoint(path, model, optimizer, step):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)


def build(args):
    model = TwoTower(args.n_users, args.n_items)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    step = 0
    if os.path.exists(args.ckpt):
        state = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])  # expect: DEV017
        step = state["step"]
    return model, optimizer, step


@torch.no_grad()
def export_topk(model, n_users, n_items, k, device):
    items = model.item_tower(torch.arange(n_items, device=device))
    users = model.user_tower(torch.arange(n_users, device=device))
    topk = (users @ items.T).topk(k, dim=1).indices
    return topk.numpy()  # expect: DEV011


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default="/tmp/x_two_tower.pt")
    parser.add_argument("--n-users", type=int, default=50)
    parser.add_argument("--n-items", type=int, default=120)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--out", default="/tmp/x_topk.npy")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model, optimizer, step = build(args)
    model.to(device)
    g = torch.Generator().manual_seed(step)
    for _ in range(args.steps):
        users = torch.randint(0, args.n_users, (32,), generator=g).to(device)
        items = torch.randint(0, args.n_items, (32,), generator=g).to(device)
        logits = model(users, items)
        loss = F.cross_entropy(logits, torch.arange(32, device=device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
    save_checkpoint(args.ckpt, model, optimizer, step)
    print(f"step {step} loss {loss.item():.4f}")

    model.eval()
    np.save(args.out, export_topk(model, args.n_users, args.n_items, 10, device))


if __name__ == "__main__":
    main()
