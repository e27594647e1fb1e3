"""SimCLR pretraining with DistributedDataParallel, launched with torchrun:

    torchrun --nproc_per_node=4 q_ddp_simclr_ok.py --epochs 10

NT-Xent over the local batch, labels from torch.arange, gradients averaged by DDP.
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class JitterPairs(Dataset):
    def __init__(self, n=4096, dim=48, seed=0):
        self.x = torch.randn(n, dim, generator=torch.Generator().manual_seed(seed))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        v = self.x[i]
        return v + 0.1 * torch.randn_like(v), v * (1 + 0.1 * torch.randn_like(v))


class ProjNet(nn.Module):
    def __init__(self, dim=48, hidden=256, out=64):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU())
        self.proj = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, out))

    def forward(self, x):
        return self.proj(self.backbone(x))


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    n = z1.size(0)
    sim = z @ z.T / tau
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


def setup():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    return local_rank


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--out", default="simclr_ddp.pt")
    args = ap.parse_args()
    local_rank = setup()

    model = nn.SyncBatchNorm.convert_sync_batchnorm(ProjNet()).to(local_rank)
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9, weight_decay=1e-6)

    ds = JitterPairs()
    sampler = DistributedSampler(ds)
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=sampler, drop_last=True)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for v1, v2 in loader:
            v1 = v1.cuda(local_rank, non_blocking=True)
            v2 = v2.cuda(local_rank, non_blocking=True)
            loss = nt_xent(model(v1), model(v2))
            opt.zero_grad()
            loss.backward()
            opt.step()
        stats = torch.tensor([loss.item()], device=f"cuda:{local_rank}")
        dist.all_reduce(stats)
        if dist.get_rank() == 0:
            print(f"epoch {epoch}: mean loss {stats.item() / dist.get_world_size():.4f}")
            torch.save(model.module.state_dict(), args.out)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
