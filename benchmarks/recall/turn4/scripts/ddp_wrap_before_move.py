"""mp.spawn training where each worker wraps the model in DDP and only then moves it."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel


def worker(rank, world_size):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    net = nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 1))
    net = DistributedDataParallel(net, device_ids=[rank])  # expect: DEV014
    net = net.to(rank)
    opt = torch.optim.Adam(net.parameters())
    for _ in range(5):
        loss = net(torch.randn(8, 10, device=rank)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    n = torch.cuda.device_count()
    mp.spawn(worker, args=(n,), nprocs=n)
