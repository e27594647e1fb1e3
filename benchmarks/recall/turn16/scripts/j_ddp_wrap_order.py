"""Multi-GPU training with mp.spawn + DDP, distributed evaluation with all_gather.

    python j_ddp_wrap_order.py --world-size 2
"""
import argparse
import os

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class ConvNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 16, 16, generator=g)
    y = torch.randint(0, 5, (n,), generator=g)
    x += y.view(-1, 1, 1, 1).float() * 0.3
    return TensorDataset(x, y)


@torch.no_grad()
def gather_predictions(model, loader, device, world_size):
    model.eval()
    preds, labels = [], []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        preds.append(model(x).argmax(1))
        labels.append(y)
    preds, labels = torch.cat(preds), torch.cat(labels)
    all_preds = [torch.zeros_like(preds) for _ in range(world_size)]
    all_labels = [torch.zeros_like(labels) for _ in range(world_size)]
    dist.all_gather(all_preds, preds)
    dist.all_gather(all_labels, labels)
    return torch.cat(all_preds).cpu().numpy(), torch.cat(all_labels).cpu().numpy()


def worker(rank, world_size, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(args.port))
    use_cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if use_cuda else "gloo", rank=rank, world_size=world_size)
    if use_cuda:
        torch.cuda.set_device(rank)
    device = torch.device(f"cuda:{rank}" if use_cuda else "cpu")

    train_set, val_set = make_data(512, 0), make_data(128, 1)
    train_sampler = DistributedSampler(train_set, num_replicas=world_size, rank=rank)
    val_sampler = DistributedSampler(val_set, num_replicas=world_size, rank=rank, shuffle=False)
    train_loader = DataLoader(train_set, batch_size=32, sampler=train_sampler)
    val_loader = DataLoader(val_set, batch_size=64, sampler=val_sampler)

    model = ConvNet()
    if args.sync_bn:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = DistributedDataParallel(model, device_ids=[rank] if use_cuda else None)  # expect: DEV014
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        train_sampler.set_epoch(epoch)
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        preds, labels = gather_predictions(model, val_loader, device, world_size)
        if rank == 0:
            acc = float(np.mean(preds == labels))
            print(f"epoch {epoch}: val acc {acc:.3f} on {len(labels)} samples")
            torch.save(model.module.state_dict(), args.out)

    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--world-size", type=int, default=max(1, torch.cuda.device_count()))
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--sync-bn", action="store_true")
    p.add_argument("--port", type=int, default=29533)
    p.add_argument("--out", default="convnet_ddp.pt")
    args = p.parse_args()
    mp.spawn(worker, args=(args.world_size, args), nprocs=args.world_size, join=True)
