"""Distributed CLIP-style contrastive training with negatives gathered from all ranks.

    torchrun --nproc_per_node=2 k_ddp_clip_ok.py            # GPUs (nccl) or CPU (gloo)
"""
import argparse
import math
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class TwoTower(nn.Module):
    def __init__(self, d_img=48, d_txt=24, d=32):
        super().__init__()
        self.img = nn.Sequential(nn.Linear(d_img, 64), nn.GELU(), nn.Linear(64, d))
        self.txt = nn.Sequential(nn.Linear(d_txt, 64), nn.GELU(), nn.Linear(64, d))
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, xi, xt):
        return F.normalize(self.img(xi), dim=-1), F.normalize(self.txt(xt), dim=-1), self.logit_scale.exp()


def gather_with_local_grad(x, rank, world):
    parts = [torch.zeros_like(x) for _ in range(world)]
    dist.all_gather(parts, x.detach())
    parts[rank] = x
    return torch.cat(parts)


def init():
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
        backend = "nccl"
    else:
        device = torch.device("cpu")
        backend = "gloo"
    dist.init_process_group(backend)
    return dist.get_rank(), dist.get_world_size(), local_rank, device


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--resume", default="")
    args = ap.parse_args()
    rank, world, local_rank, device = init()

    torch.manual_seed(0)
    img = torch.randn(512, 48)
    txt = img[:, :24] + 0.1 * torch.randn(512, 24)
    ds = TensorDataset(img, txt)
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True)
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=sampler, drop_last=True)

    model = TwoTower().to(device)
    if args.resume:
        state = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(state)
    ddp = DDP(model, device_ids=[local_rank] if device.type == "cuda" else None)
    opt = torch.optim.AdamW(ddp.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for xi, xt in loader:
            xi, xt = xi.to(device, non_blocking=True), xt.to(device, non_blocking=True)
            zi, zt, scale = ddp(xi, xt)
            all_zt = gather_with_local_grad(zt, rank, world)
            all_zi = gather_with_local_grad(zi, rank, world)
            b = zi.shape[0]
            labels = torch.arange(b, device=device) + rank * b
            loss = (F.cross_entropy(scale * zi @ all_zt.t(), labels)
                    + F.cross_entropy(scale * zt @ all_zi.t(), labels)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f} scale {scale.item():.2f}")
            torch.save(model.state_dict(), "clip_ddp_last.pt")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
