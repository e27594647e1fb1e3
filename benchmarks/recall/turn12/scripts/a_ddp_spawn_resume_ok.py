"""Correct look-alike: mp.spawn DDP training with resume. Each rank uses its own
GPU (or gloo on the CPU), the model is moved before the DDP wrap, the optimizer
is created and its state loaded after the move, and the checkpoint is loaded with
map_location.

Written against "got device_ids [0], output_device 0, and module parameters
{device(type='cpu')}", "Adds torch.cuda.set_device calls to DDP examples",
"optimizer load_state_dict() problem?" and "Attempting to deserialize object on a
CUDA device but torch.cuda.is_available() is False".

Run with: python a_ddp_spawn_resume_ok.py
"""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

CKPT = "/tmp/ddp_spawn_ckpt.pt"


def worker(rank, world_size):
    use_cuda = torch.cuda.is_available()
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("nccl" if use_cuda else "gloo", rank=rank, world_size=world_size)
    if use_cuda:
        torch.cuda.set_device(rank)
        device = torch.device("cuda", rank)
    else:
        device = torch.device("cpu")

    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    start = 0
    if os.path.exists(CKPT):
        state = torch.load(CKPT, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["epoch"] + 1
    ddp = DDP(model, device_ids=[rank] if use_cuda else None)

    g = torch.Generator().manual_seed(0)
    x = torch.randn(2048, 16, generator=g)
    y = x.sum(1, keepdim=True)
    ds = TensorDataset(x, y)
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank)
    loader = DataLoader(ds, batch_size=64, sampler=sampler)
    for epoch in range(start, start + 2):
        sampler.set_epoch(epoch)
        total = torch.zeros((), device=device)
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(ddp(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.detach()
        dist.all_reduce(total)
        if rank == 0:
            print(f"epoch {epoch} mean loss {(total / (len(loader) * world_size)).item():.4f}")
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, CKPT)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    world_size = max(torch.cuda.device_count(), 1) if torch.cuda.is_available() else 2
    mp.spawn(worker, args=(world_size,), nprocs=world_size, join=True)
