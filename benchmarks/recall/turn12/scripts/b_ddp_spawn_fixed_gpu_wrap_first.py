"""Multi-GPU CNN training launched with torch.multiprocessing.spawn and DDP.

Written from "DDP: why does every process allocate memory of GPU 0 and how to
avoid it?" (pytorch/examples#969), "Adds torch.cuda.set_device calls to DDP
examples" (pytorch/examples#1142) and "got device_ids [0], output_device 0, and
module parameters {device(type='cpu')}" (pytorch/pytorch#100243): every
spawned rank picks the first GPU, and the model is wrapped in DDP while its
parameters are still on the CPU.
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 7 * 7, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


def synthetic_digits(n=2048, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    x = torch.randn(n, 1, 28, 28, generator=g) * 0.3
    x[torch.arange(n), 0, y * 2 + 4, 4:24] += 1.0
    return TensorDataset(x, y)


def worker(rank, world_size, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    device = torch.device("cuda:0")  # expect: DEV013
    torch.manual_seed(args.seed)

    model = SmallCNN()
    model = DDP(model, device_ids=[rank])  # expect: DEV014
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr * world_size, momentum=0.9)

    dataset = synthetic_digits()
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, pin_memory=True)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        running = torch.zeros(2, device=device)
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += torch.stack([loss.detach() * x.size(0), torch.tensor(float(x.size(0)), device=device)])
        dist.all_reduce(running)
        if rank == 0:
            print(f"epoch {epoch} loss {(running[0] / running[1]).item():.4f}")

    if rank == 0:
        torch.save(model.module.state_dict(), args.out)
    dist.barrier()
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="cnn_ddp.pt")
    args = parser.parse_args()
    world_size = torch.cuda.device_count()
    mp.spawn(worker, args=(world_size, args), nprocs=world_size, join=True)


if __name__ == "__main__":
    main()
