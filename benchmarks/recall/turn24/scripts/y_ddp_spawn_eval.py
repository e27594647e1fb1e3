"""Multi-GPU evaluation of a trained regressor with mp.spawn (one process per GPU)."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class Regressor(nn.Module):
    def __init__(self, d_in=16, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def setup(rank, world_size, port):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(port))
    dist.init_process_group("nccl", rank=rank, world_size=world_size)


def run(rank, world_size, args):
    setup(rank, world_size, args.port)
    device = torch.device("cuda:0")  # expect: DEV013
    torch.cuda.set_device(device)

    model = Regressor().to(device)
    state = torch.load(args.weights, map_location=device) if args.weights else None
    if state is not None:
        model.load_state_dict(state)
    model = DDP(model, device_ids=[device.index])
    model.eval()

    g = torch.Generator().manual_seed(123)
    data = TensorDataset(torch.randn(2048, 16, generator=g), torch.randn(2048, generator=g))
    sampler = DistributedSampler(data, shuffle=False)
    loader = DataLoader(data, batch_size=128, sampler=sampler)

    sq_err = torch.zeros((), device=device)
    count = torch.zeros((), device=device)
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            pred = model(x)
            sq_err += ((pred - y) ** 2).sum()
            count += y.numel()
    dist.all_reduce(sq_err)
    dist.all_reduce(count)
    if rank == 0:
        print(f"RMSE over {int(count.item())} samples: {(sq_err / count).sqrt().item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", default="")
    parser.add_argument("--port", type=int, default=29533)
    args = parser.parse_args()
    world_size = torch.cuda.device_count()
    mp.spawn(run, args=(world_size, args), nprocs=world_size, join=True)
