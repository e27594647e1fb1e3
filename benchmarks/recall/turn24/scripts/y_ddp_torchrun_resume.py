"""DDP training launched with torchrun, resumable.

    torchrun --nproc_per_node=4 y_ddp_torchrun_resume.py --resume ckpt/last.pt
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_model(width):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, 10),
    )


def make_dataset(n=512):
    g = torch.Generator().manual_seed(0)
    return TensorDataset(torch.randn(n, 3, 16, 16, generator=g), torch.randint(0, 10, (n,), generator=g))


def save_checkpoint(path, model, optimizer, epoch):
    if dist.get_rank() != 0:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--resume", default="")
    parser.add_argument("--out", default="ckpt/last.pt")
    args = parser.parse_args()

    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group(backend="nccl")
    device = torch.device("cuda", local_rank)

    model = build_model(args.width)
    start_epoch = 0
    state = None
    if args.resume:
        state = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(state["model"])
        start_epoch = state["epoch"] + 1

    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)  # expect: DEV014
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    if state is not None:
        optimizer.load_state_dict(state["optimizer"])

    dataset = make_dataset()
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=32, sampler=sampler, num_workers=2, pin_memory=True)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(start_epoch, args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for images, targets in loader:
            images = images.to(device, non_blocking=True)
            targets = targets.to(device, non_blocking=True)
            loss = criterion(model(images), targets)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        if local_rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}")
        save_checkpoint(args.out, model, optimizer, epoch)

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
