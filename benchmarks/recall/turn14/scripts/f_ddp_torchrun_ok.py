"""Distributed training of a demand-forecasting MLP, launched with torchrun.

    torchrun --nproc_per_node=4 f_ddp_torchrun_ok.py --epochs 3
    torchrun --nproc_per_node=4 f_ddp_torchrun_ok.py --resume snap.pt
    python f_ddp_torchrun_ok.py            # single process, gloo, for debugging
"""
import argparse
import os
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

LOOKBACK, HORIZON = 32, 8


def init_distributed():
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("LOCAL_RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    local_rank = int(os.environ["LOCAL_RANK"])
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
        backend = "nccl"
    else:
        device = torch.device("cpu")
        backend = "gloo"
    dist.init_process_group(backend=backend)
    return dist.get_rank(), dist.get_world_size(), device


def demand_windows(n_items=32, length=300, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(length, dtype=torch.float32)
    level = 5 + 3 * torch.rand(n_items, 1, generator=g)
    series = level + torch.sin(6.2832 * t / 7) + 0.2 * torch.randn(n_items, length, generator=g)
    starts = range(0, length - LOOKBACK - HORIZON, 4)
    x = torch.cat([series[:, s:s + LOOKBACK] for s in starts])
    y = torch.cat([series[:, s + LOOKBACK:s + LOOKBACK + HORIZON] for s in starts])
    return TensorDataset(x, y)


class DemandMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LOOKBACK, 128), nn.ReLU(), nn.Linear(128, HORIZON))

    def forward(self, x):
        return self.net(x - x.mean(dim=1, keepdim=True)) + x.mean(dim=1, keepdim=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--resume", default="")
    parser.add_argument("--snapshot", default=os.path.join(tempfile.gettempdir(), "demand_snap.pt"))
    args = parser.parse_args()

    rank, world_size, device = init_distributed()
    dataset = demand_windows()
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank)
    loader = DataLoader(dataset, batch_size=64, sampler=sampler)

    model = DemandMLP().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    start_epoch = 0
    if args.resume:
        snap = torch.load(args.resume, map_location=device)
        model.load_state_dict(snap["model"])
        optimizer.load_state_dict(snap["optimizer"])
        start_epoch = snap["epoch"] + 1
    ddp_model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)

    for epoch in range(start_epoch, start_epoch + args.epochs):
        sampler.set_epoch(epoch)
        ddp_model.train()
        total = torch.zeros(2, device=device)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.l1_loss(ddp_model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += torch.stack([loss.detach() * x.size(0), torch.tensor(float(x.size(0)), device=device)])
        dist.all_reduce(total)
        if rank == 0:
            print(f"epoch {epoch}  mae {(total[0] / total[1]).item():.4f}")
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, args.snapshot)
        dist.barrier()

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
