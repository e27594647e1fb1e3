"""Task-incremental continual learning with experience replay.

A shared backbone gets a new head per task; a reservoir buffer keeps a few old
examples (on the host) and mixes them into every batch of the current task.
"""
import argparse
import os
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ReservoirBuffer:
    def __init__(self, capacity):
        self.capacity = capacity
        self.items = []
        self.seen = 0

    def add(self, x, y, task):
        for xi, yi in zip(x, y):
            self.seen += 1
            item = (xi.detach().cpu(), int(yi), task)
            if len(self.items) < self.capacity:
                self.items.append(item)
            else:
                j = random.randrange(self.seen)
                if j < self.capacity:
                    self.items[j] = item

    def sample(self, n):
        batch = random.sample(self.items, min(n, len(self.items)))
        xs = torch.stack([b[0] for b in batch])
        ys = torch.tensor([b[1] for b in batch])
        ts = [b[2] for b in batch]
        return xs, ys, ts


class MultiHeadNet(nn.Module):
    def __init__(self, d_in=20, hidden=64):
        super().__init__()
        self.hidden = hidden
        self.backbone = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = nn.ModuleList()

    def forward(self, x, task):
        return self.heads[task](self.backbone(x))


def make_task(t, n=128, d=20):
    g = torch.Generator().manual_seed(100 + t)
    x = torch.randn(n, d, generator=g) + t
    y = (x[:, t] > t).long()
    return TensorDataset(x, y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=3)
    ap.add_argument("--buffer", type=int, default=64)
    ap.add_argument("--resume", default="")
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")
    random.seed(0)
    torch.manual_seed(0)

    model = MultiHeadNet()
    start_task = 0
    if args.resume and os.path.exists(args.resume):
        state = torch.load(args.resume)  # expect: DEV008
        for _ in range(state["n_heads"]):
            model.heads.append(nn.Linear(model.hidden, 2))
        model.load_state_dict(state["model"])
        start_task = state["n_heads"]
    model.to(device)

    buffer = ReservoirBuffer(args.buffer)
    for t in range(start_task, args.tasks):
        model.heads.append(nn.Linear(model.hidden, 2))  # expect: DEV015
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        loader = DataLoader(make_task(t), batch_size=16, shuffle=True)
        for epoch in range(2):
            for x, y in loader:
                x, y = x.to(device), y.to(device)
                loss = F.cross_entropy(model(x, t), y)
                if buffer.items:
                    bx, by, bt = buffer.sample(16)
                    bx, by = bx.to(device), by.to(device)
                    for old in set(bt):
                        sel = torch.tensor([i for i, tt in enumerate(bt) if tt == old])
                        loss = loss + 0.5 * F.cross_entropy(model(bx[sel], old), by[sel])
                opt.zero_grad()
                loss.backward()
                opt.step()
                buffer.add(x, y, t)
        print(f"task {t}: last loss {loss.item():.3f}, buffer {len(buffer.items)}")


if __name__ == "__main__":
    main()
