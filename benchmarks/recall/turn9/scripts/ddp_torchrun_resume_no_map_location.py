"""torchrun training of a text classifier with DistributedDataParallel, resuming from the checkpoint
rank 0 wrote.

Thread: https://github.com/pytorch/examples/issues/969 (DDP: why does every process allocate memory of
GPU 0: torch.load() without map_location restores the tensors on the GPU that saved them).
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    torch.cuda.set_device(local_rank)
    model = nn.Sequential(nn.EmbeddingBag(1000, 64), nn.Linear(64, 4)).cuda(local_rank)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    start = 0
    if args.resume:
        ckpt = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["optim"])
        start = ckpt["epoch"] + 1
    model = DDP(model, device_ids=[local_rank])
    ds = TensorDataset(torch.randint(0, 1000, (256, 20)), torch.randint(0, 4, (256,)))
    sampler = DistributedSampler(ds)
    loader = DataLoader(ds, batch_size=32, sampler=sampler)
    for epoch in range(start, args.epochs):
        sampler.set_epoch(epoch)
        for ids, y in loader:
            ids, y = ids.cuda(local_rank, non_blocking=True), y.cuda(local_rank, non_blocking=True)
            loss = nn.functional.cross_entropy(model(ids), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if dist.get_rank() == 0:
            torch.save({"model": model.module.state_dict(), "optim": opt.state_dict(), "epoch": epoch}, "ckpt.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
