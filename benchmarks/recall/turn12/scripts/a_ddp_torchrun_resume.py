"""torchrun training script with resume-from-checkpoint: each rank builds the
model, restores model and optimizer state, wraps the model in DDP and trains on
its shard of a synthetic regression set.

Written from "optimizer load_state_dict() problem?" (pytorch#2830: state loaded
before the model is moved, `exp_avg` stays on the CPU), "got device_ids [0],
output_device 0, and module parameters {device(type='cpu')}" (pytorch#100243) and
"Adds torch.cuda.set_device calls to DDP examples" / "DDP: why does every process
allocate memory of GPU 0" (every rank on cuda:0).

Run with: torchrun --nproc_per_node=2 a_ddp_torchrun_resume.py
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

CKPT = "/tmp/ddp_resume_ckpt.pt"


def build_model():
    return nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))


def main():
    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    rank = dist.get_rank()
    device = torch.device("cuda:0")  # expect: DEV013
    torch.cuda.set_device(device)  # also: DEV013

    model = build_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    start_epoch = 0
    if os.path.exists(CKPT):
        state = torch.load(CKPT, map_location="cpu")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])  # expect: DEV017
        start_epoch = state["epoch"] + 1

    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.to(device)

    g = torch.Generator().manual_seed(0)
    x = torch.randn(4096, 32, generator=g)
    y = x[:, :4].sum(1, keepdim=True) + 0.1 * torch.randn(4096, 1, generator=g)
    dataset = TensorDataset(x, y)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=128, sampler=sampler)

    for epoch in range(start_epoch, start_epoch + 3):
        sampler.set_epoch(epoch)
        model.train()
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            loss = nn.functional.mse_loss(model(xb), yb)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}")
            torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict(),
                        "epoch": epoch}, CKPT)
        dist.barrier()

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
