"""torchrun training script that resumes every rank from the same checkpoint."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = nn.Linear(32, 32).cuda(local_rank)
    if os.path.exists("last.pt"):
        state = torch.load("last.pt", map_location="cuda:0")  # expect: DEV013
        model.load_state_dict(state["model"])
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = torch.randn(16, 32, device=local_rank)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    if dist.get_rank() == 0:
        torch.save({"model": model.module.state_dict()}, "last.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
