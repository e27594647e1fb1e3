"""torchrun training with early stopping: rank 0 tracks the validation loss and the stop decision
is broadcast to every rank so that they all leave the epoch loop together.

    torchrun --nproc_per_node=2 ddp_torchrun_early_stop_broadcast.py

Thread: https://github.com/mistralai/mistral-inference/issues/252 (No backend type associated with
device type cpu: a CPU tensor handed to dist.broadcast under NCCL).
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def evaluate(model, loader, device):
    model.eval()
    stats = torch.zeros(2, device=device)
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            stats += torch.stack([F.mse_loss(model(x), y, reduction="sum"), torch.tensor(float(len(x)), device=device)])
    dist.all_reduce(stats)
    model.train()
    return (stats[0] / stats[1]).item()


def main(patience=3):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    x, y = torch.randn(4096, 10), torch.randn(4096, 1)
    train_set, val_set = TensorDataset(x[:3584], y[:3584]), TensorDataset(x[3584:], y[3584:])
    sampler = DistributedSampler(train_set)
    train = DataLoader(train_set, batch_size=64, sampler=sampler)
    val = DataLoader(val_set, batch_size=128, sampler=DistributedSampler(val_set, shuffle=False))
    model = DDP(nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 1)).to(device), device_ids=[local_rank])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    best, bad = float("inf"), 0
    for epoch in range(100):
        sampler.set_epoch(epoch)
        for xb, yb in train:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        val_loss = evaluate(model, val, device)
        if dist.get_rank() == 0:
            bad = 0 if val_loss < best else bad + 1
            best = min(best, val_loss)
        stop = torch.tensor([int(bad >= patience)])  # expect: DEV006
        dist.broadcast(stop, src=0)
        if stop.item():
            break
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
