"""Launch with: torchrun --nproc-per-node 2 main.py"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

from engine import evaluate, train_one_epoch
from utils.dist import get_device, is_main_process, load_checkpoint, save_on_master

NUM_CLASSES = 6


def build_model():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(32, NUM_CLASSES))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--resume", default="")
    parser.add_argument("--out", default="checkpoint.pt")
    args = parser.parse_args()

    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="nccl" if torch.cuda.is_available() else "gloo")
    device = get_device()
    print(f"[rank {dist.get_rank()} / local {local_rank}] training on {device}")

    torch.manual_seed(0)
    train_set = TensorDataset(torch.randn(128, 3, 16, 16), torch.randint(0, NUM_CLASSES, (128,)))
    val_set = TensorDataset(torch.randn(48, 3, 16, 16), torch.randint(0, NUM_CLASSES, (48,)))
    train_sampler = DistributedSampler(train_set, shuffle=True)
    train_loader = DataLoader(train_set, batch_size=16, sampler=train_sampler)
    val_loader = DataLoader(val_set, batch_size=16, sampler=DistributedSampler(val_set, shuffle=False))

    model = build_model().to(device)
    if args.resume:
        model.load_state_dict(load_checkpoint(args.resume)["model"])
    model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(args.epochs):
        train_sampler.set_epoch(epoch)
        loss = train_one_epoch(model, train_loader, criterion, optimizer, device)
        acc = evaluate(model, val_loader, device, NUM_CLASSES)
        if is_main_process():
            print(f"epoch {epoch}: loss {loss:.4f} acc {acc:.3f}")
    save_on_master({"model": model.module.state_dict()}, args.out)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
