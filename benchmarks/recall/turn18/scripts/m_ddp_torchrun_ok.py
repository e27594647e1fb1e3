"""torchrun-launched DDP training with resume; also runs as a single CPU process.

    torchrun --nproc_per_node=2 m_ddp_torchrun_ok.py --ckpt /tmp/ddp_last.pt
    python m_ddp_torchrun_ok.py            # no torchrun: one process, CPU or GPU 0
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


def init_distributed():
    if "LOCAL_RANK" not in os.environ:
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        return False, 0, device
    local_rank = int(os.environ["LOCAL_RANK"])
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
        dist.init_process_group("nccl")
    else:
        device = torch.device("cpu")
        dist.init_process_group("gloo")
    return True, dist.get_rank(), device


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="/tmp/m_ddp_ok_last.pt")
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()

    distributed, rank, device = init_distributed()
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    if distributed:
        model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    raw = model.module if distributed else model
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    start = 0
    if os.path.exists(args.ckpt):
        if distributed:
            dist.barrier()
        state = torch.load(args.ckpt, map_location=device)
        raw.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["epoch"] + 1

    data = TensorDataset(torch.randn(512, 32), torch.randint(0, 4, (512,)))
    sampler = DistributedSampler(data) if distributed else None
    loader = DataLoader(data, batch_size=64, sampler=sampler, shuffle=sampler is None)

    for epoch in range(start, start + args.epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if rank == 0:
            torch.save({"model": raw.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, args.ckpt)
            print(f"epoch {epoch} loss {loss.item():.3f}")
        if distributed:
            dist.barrier()

    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
