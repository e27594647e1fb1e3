"""Activity recognition from accelerometer windows, trained with torchrun.

    torchrun --nproc_per_node=4 f_torchrun_fixed_gpu.py --epochs 5
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

N_CLASSES = 6


def setup_distributed():
    dist.init_process_group(backend="nccl")
    rank = dist.get_rank()
    world_size = dist.get_world_size()
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda:0")  # expect: DEV013
    torch.cuda.set_device(device)
    return rank, world_size, local_rank, device


def synthetic_har(n=3000, length=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    t = torch.linspace(0, 1, length)
    freq = (1 + y.float()).unsqueeze(1) * 3.0
    x = torch.stack([torch.sin(6.28 * freq * t), torch.cos(6.28 * freq * t), torch.randn(n, length, generator=g)], dim=1)
    x = x + 0.3 * torch.randn(x.shape, generator=g)
    return TensorDataset(x, y)


class HARNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 32, 5, padding=2)
        self.conv2 = nn.Conv1d(32, 64, 5, padding=2)
        self.fc = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        x = F.max_pool1d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x)).mean(dim=2)
        return self.fc(x)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    stats = torch.zeros(2, device=device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        stats[0] += (model(x).argmax(1) == y).sum()
        stats[1] += y.numel()
    dist.all_reduce(stats)
    return (stats[0] / stats[1]).item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()

    rank, world_size, local_rank, device = setup_distributed()
    train_set, val_set = synthetic_har(seed=0), synthetic_har(n=600, seed=1)
    train_sampler = DistributedSampler(train_set, shuffle=True)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, sampler=train_sampler)
    val_loader = DataLoader(val_set, batch_size=256, sampler=DistributedSampler(val_set, shuffle=False))

    model = HARNet().to(device)
    model = DDP(model, device_ids=[device.index])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3 * world_size)

    for epoch in range(args.epochs):
        train_sampler.set_epoch(epoch)
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = evaluate(model, val_loader, device)
        if rank == 0:
            print(f"epoch {epoch}  loss {loss.item():.4f}  val acc {acc:.3f}  (local rank {local_rank})")

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
