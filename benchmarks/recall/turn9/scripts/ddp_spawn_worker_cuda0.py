"""mp.spawn launcher for a recurrent sequence tagger: each worker joins the NCCL group and builds its
model.

Thread: https://github.com/pytorch/pytorch/issues/70404 (DistributedDataParallel: GRU module gets
additional processes on GPU 0 and takes more memory).
"""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(10, 32, batch_first=True)
        self.out = nn.Linear(32, 5)

    def forward(self, x):
        return self.out(self.rnn(x)[0])


def worker(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    device = torch.device("cuda:0")  # expect: DEV013
    model = DDP(Tagger().to(device), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = torch.randn(4, 20, 10).to(device)
        y = torch.randint(0, 5, (4, 20)).to(device)
        loss = nn.functional.cross_entropy(model(x).transpose(1, 2), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "localhost")
    os.environ.setdefault("MASTER_PORT", "29500")
    n = torch.cuda.device_count()
    mp.spawn(worker, args=(n,), nprocs=n, join=True)
