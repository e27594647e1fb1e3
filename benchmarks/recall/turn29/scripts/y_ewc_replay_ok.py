"""Continual learning on a stream of tasks: EWC penalty plus a small reservoir replay memory."""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ReservoirMemory:
    """Keeps the memory on the CPU and hands samples over on the requested device."""

    def __init__(self, capacity, dim):
        self.capacity = capacity
        self.xs = torch.zeros(capacity, dim)
        self.ys = torch.zeros(capacity, dtype=torch.long)
        self.seen = 0

    def add(self, x, y):
        for xi, yi in zip(x, y):
            if self.seen < self.capacity:
                slot = self.seen
            else:
                slot = random.randint(0, self.seen)
            if slot < self.capacity:
                self.xs[slot] = xi
                self.ys[slot] = yi
            self.seen += 1

    def sample(self, n, device):
        filled = min(self.seen, self.capacity)
        idx = torch.randint(0, filled, (n,))
        return self.xs[idx].to(device), self.ys[idx].to(device)


def fisher_diagonal(model, loader, device):
    fisher = {n: torch.zeros_like(p) for n, p in model.named_parameters()}
    model.eval()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        model.zero_grad()
        F.cross_entropy(model(x), y).backward()
        for n, p in model.named_parameters():
            fisher[n] += p.grad.detach() ** 2 / len(loader)
    return fisher


def ewc_penalty(model, fisher, anchor):
    loss = 0.0
    for n, p in model.named_parameters():
        loss = loss + (fisher[n] * (p - anchor[n]) ** 2).sum()
    return loss


def task_loader(task_id, n=256):
    g = torch.Generator().manual_seed(task_id)
    x = torch.randn(n, 16, generator=g) + task_id
    y = torch.randint(0, 4, (n,), generator=g)
    return DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=3)
    ap.add_argument("--ewc-lambda", type=float, default=10.0)
    ap.add_argument("--replay", type=int, default=16)
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"

    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    memory = ReservoirMemory(200, 16)
    fisher, anchor = None, None

    for t in range(args.tasks):
        loader = task_loader(t)
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            if memory.seen > 0:
                mx, my = memory.sample(args.replay, device)
                x, y = torch.cat([x, mx]), torch.cat([y, my])
            loss = F.cross_entropy(model(x), y)
            if fisher is not None:
                loss = loss + args.ewc_lambda * ewc_penalty(model, fisher, anchor)
            opt.zero_grad()
            loss.backward()
            opt.step()
        for x, y in loader:
            memory.add(x, y)
        fisher = fisher_diagonal(model, loader, device)
        anchor = {n: p.detach().clone() for n, p in model.named_parameters()}
        print(f"task {t} done, last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
