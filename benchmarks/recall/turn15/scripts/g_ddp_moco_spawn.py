"""MoCo-v2 style pre-training, one process per GPU via mp.spawn.

    python g_ddp_moco_spawn.py --world-size 4
"""
import argparse
import copy
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class PairDataset(Dataset):
    def __init__(self, n=512):
        self.x = torch.rand(n, 3, 32, 32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        img = self.x[i]
        noise = lambda: (img + 0.1 * torch.randn_like(img)).clamp(0, 1)
        return noise(), noise()


def backbone(dim=128):
    return nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, dim))


class MoCo(nn.Module):
    def __init__(self, dim=128, K=4096, m=0.999, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = backbone(dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        gathered = [torch.zeros_like(keys) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, keys)
        keys = torch.cat(gathered)
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + keys.shape[0]] = keys.T
        self.queue_ptr[0] = (ptr + keys.shape[0]) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)
        self._enqueue(k)
        return F.cross_entropy(logits, labels)


def worker(rank, world_size, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(0)  # expect: DEV013

    model = MoCo(K=args.queue)
    model = DDP(model, device_ids=[rank])  # expect: DEV014
    model.cuda()

    ds = PairDataset()
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=sampler, drop_last=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.03 * world_size, momentum=0.9, weight_decay=1e-4)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for im_q, im_k in loader:
            im_q, im_k = im_q.cuda(non_blocking=True), im_k.cuda(non_blocking=True)
            loss = model(im_q, im_k)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world-size", type=int, default=torch.cuda.device_count())
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--queue", type=int, default=4096)
    args = ap.parse_args()
    mp.spawn(worker, args=(args.world_size, args), nprocs=args.world_size, join=True)
