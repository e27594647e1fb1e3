"""torchrun training script for a text classifier; every rank builds its model and batches on the
device it names."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda:0")  # expect: DEV013
    model = DDP(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)).to(device))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    torch.manual_seed(rank)
    for step in range(20):
        x = torch.randn(32, 20, device=device)
        y = torch.randint(0, 4, (32,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if rank == 0:
        torch.save(model.module.state_dict(), "cls.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
