"""Data-parallel node classification: every process keeps the whole (small)
graph and trains on its own shard of the labelled nodes.

    python i_ddp_gnn_spawn.py --world-size 2
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def build_graph(n=400, classes=4, dim=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, classes, (n,), generator=g)
    src = torch.randint(0, n, (4 * n,), generator=g)
    # mostly intra-class edges
    same = y.unsqueeze(0).eq(y.unsqueeze(1))
    dst = torch.multinomial(same[src].float() + 0.02, 1, generator=g).squeeze(1)
    edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    x = F.one_hot(y, classes).float() @ torch.randn(classes, dim, generator=g) + torch.randn(n, dim, generator=g)
    return x, edge_index, y


class SAGE(nn.Module):
    def __init__(self, dim, hidden, classes):
        super().__init__()
        self.l1 = nn.Linear(2 * dim, hidden)
        self.l2 = nn.Linear(2 * hidden, classes)

    @staticmethod
    def aggregate(h, edge_index):
        src, dst = edge_index
        out = torch.zeros_like(h).index_add_(0, dst, h[src])
        deg = torch.bincount(dst, minlength=h.size(0)).clamp(min=1).unsqueeze(-1)
        return out / deg

    def forward(self, x, edge_index):
        h = F.relu(self.l1(torch.cat([x, self.aggregate(x, edge_index)], -1)))
        return self.l2(torch.cat([h, self.aggregate(h, edge_index)], -1))


def run(rank, world_size, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    device = torch.device("cuda:0")  # expect: DEV013

    x, edge_index, y = build_graph()
    x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
    train_nodes = torch.arange(0, 320)
    shard = train_nodes[rank::world_size].to(device)
    test_nodes = torch.arange(320, 400, device=device)

    model = DDP(SAGE(x.size(1), 64, int(y.max()) + 1).to(device), device_ids=[device])
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[shard], y[shard])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if rank == 0 and epoch % 10 == 0:
            model.eval()
            with torch.no_grad():
                acc = (model(x, edge_index)[test_nodes].argmax(-1) == y[test_nodes]).float().mean()
            print(f"epoch {epoch:3d} loss {loss.item():.4f} test acc {acc.item():.3f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--world-size", type=int, default=torch.cuda.device_count())
    p.add_argument("--epochs", type=int, default=50)
    args = p.parse_args()
    mp.spawn(run, args=(args.world_size, args), nprocs=args.world_size, join=True)
