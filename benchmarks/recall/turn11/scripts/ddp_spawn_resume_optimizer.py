"""mp.spawn data-parallel training of a text CNN with --resume: each worker restores the model and
the SGD momentum from a checkpoint before wrapping the model in DDP; rank 0 saves every epoch.

Threads: https://github.com/pytorch/pytorch/issues/9871 (GPU 0 out of memory even if every
process is assigned its own GPU) and https://github.com/pytorch/pytorch/issues/2830 (optimizer
load_state_dict() problem: state loaded before the model is moved stays behind).
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class TextCNN(nn.Module):
    def __init__(self, vocab=5000, d=64, classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(d, 32, k, padding=k // 2) for k in (3, 4, 5))
        self.fc = nn.Linear(96, classes)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        return self.fc(torch.cat([F.relu(c(h)).max(-1).values for c in self.convs], dim=1))


def worker(rank, world_size, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    model = TextCNN()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    start = 0
    if args.resume:
        ckpt = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        start = ckpt["epoch"] + 1
    model = DDP(model.to(rank), device_ids=[rank])
    ds = TensorDataset(torch.randint(1, 5000, (2048, 40)), torch.randint(0, 4, (2048,)))
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank)
    loader = DataLoader(ds, batch_size=64, sampler=sampler)
    for epoch in range(start, start + args.epochs):
        sampler.set_epoch(epoch)
        for tokens, y in loader:
            tokens, y = tokens.to(rank), y.to(rank)
            loss = F.cross_entropy(model(tokens), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if rank == 0:
            torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict(),
                        "epoch": epoch}, f"textcnn_epoch{epoch}.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    world_size = torch.cuda.device_count()
    mp.spawn(worker, args=(world_size, args), nprocs=world_size)
