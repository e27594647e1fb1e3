"""torchrun launcher for a two-tower retrieval model; each process joins the NCCL group and picks
its GPU.

Thread: https://github.com/LianjiaTech/BELLE/issues/197 (invalid device ordinal on one node, several
cards); https://github.com/openai/summarize-from-feedback/issues/5 (set_device with a fixed ordinal).
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(0)  # expect: DEV013
    device = torch.device("cuda", local_rank)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)).to(device)
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(10):
        q = torch.randn(64, 32, device=device)
        loss = model(q).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
