"""Correct look-alike: a torchrun script that places everything on the local rank's GPU, wraps
the moved model, loads rank 0's checkpoint with map_location and all-reduces device counters."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    model = nn.Linear(32, 4).to(device)
    if os.path.exists("warm.pt"):
        model.load_state_dict(torch.load("warm.pt", map_location=device))
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    correct = torch.zeros(1, device=device)
    total = torch.zeros(1, device=device)
    for step in range(20):
        x = torch.randn(16, 32, device=device)
        y = torch.randint(0, 4, (16,), device=device)
        out = model(x)
        loss = F.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (out.argmax(1) == y).sum()
        total += y.numel()
    dist.all_reduce(correct)
    dist.all_reduce(total)
    if dist.get_rank() == 0:
        print((correct / total).item())
        torch.save(model.module.state_dict(), "warm.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
