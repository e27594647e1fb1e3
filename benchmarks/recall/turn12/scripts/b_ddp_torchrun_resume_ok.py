"""torchrun DDP regression with checkpoint resume (correct look-alike).

Run: torchrun --nproc_per_node=2 b_ddp_torchrun_resume_ok.py [--resume ckpt.pt]

Written from "DDP GPU0 allocate too many memory" (p0p4k/vits2_pytorch#36, map_location
missing on resume), "GPU usage in DistributedDataParallel?" (NVIDIA/apex#222) and
"optimizer load_state_dict() problem?" (pytorch/pytorch#2830): each rank binds its
own LOCAL_RANK device (or the CPU with gloo), the model is moved before DDP wraps
it, the checkpoint is mapped onto this rank's device, and the optimizer is built
and restored after the move.
"""
import argparse
import os
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def setup():
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if torch.cuda.is_available():
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
        backend = "nccl"
    else:
        device, backend = torch.device("cpu"), "gloo"
    dist.init_process_group(backend)
    return local_rank, device


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--resume", default=None)
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "ddp_regressor.pt"))
    args = parser.parse_args()

    local_rank, device = setup()
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    x = torch.randn(1024, 8)
    y = x @ torch.linspace(-1, 1, 8) + 0.1 * torch.randn(1024)
    dataset = TensorDataset(x, y)
    sampler = DistributedSampler(dataset, num_replicas=world, rank=rank)
    loader = DataLoader(dataset, batch_size=64, sampler=sampler)

    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
    start_epoch = 0
    if args.resume:
        ckpt = torch.load(args.resume, map_location=device)
        model.load_state_dict(ckpt["model"])
        start_epoch = ckpt["epoch"] + 1
    model = DDP(model, device_ids=[local_rank] if device.type == "cuda" else None)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    if args.resume:
        optimizer.load_state_dict(ckpt["optimizer"])

    for epoch in range(start_epoch, start_epoch + args.epochs):
        sampler.set_epoch(epoch)
        total = torch.zeros((), device=device)
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(model(xb).squeeze(-1), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.detach()
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
        if rank == 0:
            print(f"epoch {epoch} mean loss {total.item() / (world * len(loader)):.4f}")
            torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict(),
                        "epoch": epoch}, args.out)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
