"""torchrun DDP regression trainer with per-rank devices and checkpoint resume (NCCL on GPUs, gloo on CPUs).

Correct look-alike written from the DDP threads ("Does DDP with torchrun need
torch.cuda.set_device(device)?", "Every process takes a tiny memory on each GPU", the GongZhengLi
reply about `torch.load` without `map_location` landing on GPU 0): each rank takes its own
LOCAL_RANK device, moves the model before wrapping it, builds the optimizer afterwards and loads
the checkpoint onto its own device. Run with `torchrun --nproc_per_node=N d_ddp_torchrun_resume.py`.
"""
import os
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

CKPT = os.path.join(tempfile.gettempdir(), "d_ddp_torchrun_resume.pt")


def setup():
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        dist.init_process_group(backend="nccl")
        return torch.device("cuda", local_rank), local_rank
    dist.init_process_group(backend="gloo")
    return torch.device("cpu"), local_rank


def main(epochs=3):
    device, local_rank = setup()
    rank = dist.get_rank()
    torch.manual_seed(0)
    x = torch.randn(4096, 16)
    y = x @ torch.linspace(-1, 1, 16) + 0.1 * torch.randn(4096)
    dataset = TensorDataset(x, y)
    sampler = DistributedSampler(dataset)
    loader = DataLoader(dataset, batch_size=128, sampler=sampler)

    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    ddp = DDP(model, device_ids=[local_rank] if device.type == "cuda" else None)
    optimizer = torch.optim.Adam(ddp.parameters(), lr=1e-3)
    start = 0
    if os.path.exists(CKPT):
        state = torch.load(CKPT, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["epoch"] + 1

    for epoch in range(start, start + epochs):
        sampler.set_epoch(epoch)
        stats = torch.zeros(2, device=device)
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(ddp(xb).squeeze(-1), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            stats += torch.stack([loss.detach() * len(yb), torch.tensor(float(len(yb)), device=device)])
        dist.all_reduce(stats)
        if rank == 0:
            print(f"epoch {epoch}: mse {(stats[0] / stats[1]).item():.4f}")
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "epoch": epoch}, CKPT)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
