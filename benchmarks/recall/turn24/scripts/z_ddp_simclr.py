"""SimCLR pretraining with DistributedDataParallel, one process per GPU (mp.spawn)."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class SimCLR(nn.Module):
    def __init__(self, feat=64, proj=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, feat, 3, 2, 1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(feat, feat), nn.ReLU(), nn.Linear(feat, proj))

    def forward(self, x):
        return F.normalize(self.head(self.backbone(x)), dim=1)


def nt_xent(z1, z2, temperature=0.2):
    z = torch.cat([z1, z2])
    n = z1.size(0)
    sim = z @ z.T / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


def load_backbone(path):
    state = torch.load(path, map_location="cuda:0")  # expect: DEV013
    return {k.removeprefix("backbone."): v for k, v in state.items() if k.startswith("backbone.")}


def augment(x):
    return x + 0.05 * torch.randn_like(x)


def worker(rank, world_size, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29531")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    device = torch.device("cuda", rank)
    torch.cuda.set_device(device)

    model = SimCLR()
    if args.init:
        model.backbone.load_state_dict(load_backbone(args.init))
    model = DDP(model, device_ids=[rank])  # expect: DEV014
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    ds = TensorDataset(torch.rand(512, 3, 32, 32))
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(ds, batch_size=64, sampler=sampler, drop_last=True)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for (x,) in loader:
            x = x.to(device, non_blocking=True)
            loss = nt_xent(model(augment(x)), model(augment(x)))
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.3f}")
            torch.save(model.module.state_dict(), args.out)
    dist.destroy_process_group()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--init", default="")
    p.add_argument("--out", default="simclr.pt")
    p.add_argument("--epochs", type=int, default=2)
    args = p.parse_args()
    world_size = torch.cuda.device_count()
    mp.spawn(worker, args=(world_size, args), nprocs=world_size, join=True)
