"""Two-tower retrieval model trained with in-batch negatives, launched with torchrun.

    torchrun --nproc_per_node=4 n_ddp_two_tower.py --warm-start towers_init.pt
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class Pairs(Dataset):
    def __init__(self, n_users=1000, n_items=5000, n=20000, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.u = torch.randint(0, n_users, (n,), generator=g)
        self.i = torch.randint(0, n_items, (n,), generator=g)

    def __len__(self):
        return len(self.u)

    def __getitem__(self, k):
        return self.u[k], self.i[k]


class Tower(nn.Module):
    def __init__(self, n, dim=64):
        super().__init__()
        self.emb = nn.Embedding(n, dim)
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return F.normalize(self.proj(self.emb(ids)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim=64, temperature=0.05):
        super().__init__()
        self.user = Tower(n_users, dim)
        self.item = Tower(n_items, dim)
        self.t = temperature

    def forward(self, users, items):
        u, v = self.user(users), self.item(items)
        logits = u @ v.T / self.t
        labels = torch.arange(u.size(0), device=u.device)
        return F.cross_entropy(logits, labels)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--warm-start", default=None)
    p.add_argument("--epochs", type=int, default=2)
    args = p.parse_args()

    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)

    model = TwoTower(1000, 5000)
    if args.warm_start:
        state = torch.load(args.warm_start)  # expect: DEV008
        model.load_state_dict(state, strict=False)
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.to(local_rank)

    ds = Pairs()
    sampler = DistributedSampler(ds)
    loader = DataLoader(ds, batch_size=256, sampler=sampler, drop_last=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for users, items in loader:
            users, items = users.cuda(local_rank), items.cuda(local_rank)
            loss = model(users, items)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if dist.get_rank() == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}")
            torch.save(model.module.state_dict(), "two_tower.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
