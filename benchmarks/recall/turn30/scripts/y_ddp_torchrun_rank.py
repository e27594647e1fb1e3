"""Multi-GPU training launched with torchrun:

    torchrun --nproc_per_node=4 y_ddp_torchrun_rank.py --epochs 5

DistributedSampler over a synthetic regression set, rank 0 logs and saves."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_model():
    return nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.LayerNorm(128), nn.Linear(128, 1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--out", default="ddp_reg.pt")
    args = parser.parse_args()

    dist.init_process_group(backend="nccl")
    rank = dist.get_rank()
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(0)  # expect: DEV013
    device = torch.device("cuda")

    g = torch.Generator().manual_seed(0)
    x = torch.randn(4096, 32, generator=g)
    y = x[:, :4].sum(1, keepdim=True) + 0.1 * torch.randn(4096, 1, generator=g)
    dataset = TensorDataset(x, y)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, pin_memory=True)

    model = build_model()
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)  # expect: DEV014
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        running = torch.zeros((), device=device)
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            loss = F.mse_loss(model(xb), yb)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            running += loss.detach()
        dist.all_reduce(running, op=dist.ReduceOp.SUM)
        if rank == 0:
            print(f"epoch {epoch} mean loss {running.item() / (len(loader) * dist.get_world_size()):.4f}")

    if rank == 0:
        torch.save(model.module.state_dict(), args.out)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
