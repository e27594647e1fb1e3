"""Multi-GPU training of a load-forecasting MLP with mp.spawn, one process per GPU.

    python f_ddp_spawn_resume.py --epochs 3
    python f_ddp_spawn_resume.py --epochs 3 --resume ckpt/last.pt
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

LOOKBACK, HORIZON = 48, 12


def make_windows(n_series=64, length=400, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(length, dtype=torch.float32)
    phase = 6.28 * torch.rand(n_series, 1, generator=g)
    series = torch.sin(t / 24 * 6.28 + phase) + 0.1 * torch.randn(n_series, length, generator=g)
    xs, ys = [], []
    for start in range(0, length - LOOKBACK - HORIZON, 8):
        xs.append(series[:, start:start + LOOKBACK])
        ys.append(series[:, start + LOOKBACK:start + LOOKBACK + HORIZON])
    return TensorDataset(torch.cat(xs), torch.cat(ys))


class LoadMLP(nn.Module):
    def __init__(self, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LOOKBACK, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, HORIZON))

    def forward(self, x):
        return self.net(x)


def worker(rank, world_size, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)

    dataset = make_windows()
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, pin_memory=True)

    model = LoadMLP()
    start_epoch = 0
    if args.resume:
        state = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(state["model"])
        start_epoch = state["epoch"] + 1

    ddp_model = DDP(model, device_ids=[rank])  # expect: DEV014
    ddp_model.to(rank)
    optimizer = torch.optim.AdamW(ddp_model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()

    for epoch in range(start_epoch, start_epoch + args.epochs):
        sampler.set_epoch(epoch)
        ddp_model.train()
        for x, y in loader:
            x, y = x.to(rank, non_blocking=True), y.to(rank, non_blocking=True)
            loss = loss_fn(ddp_model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if rank == 0:
            print(f"epoch {epoch}  loss {loss.item():.4f}")
            os.makedirs(args.ckpt_dir, exist_ok=True)
            torch.save({"model": ddp_model.module.state_dict(), "epoch": epoch}, os.path.join(args.ckpt_dir, "last.pt"))
        dist.barrier()

    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--resume", default="")
    parser.add_argument("--ckpt-dir", default="ckpt")
    args = parser.parse_args()

    world_size = torch.cuda.device_count()
    mp.spawn(worker, args=(world_size, args), nprocs=world_size, join=True)


if __name__ == "__main__":
    main()
