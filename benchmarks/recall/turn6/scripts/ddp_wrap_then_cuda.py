"""Distributed fine-tuning of a text classifier head on precomputed sentence embeddings; the
model is wrapped first and sent to the rank's GPU afterwards."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel


def main():
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    head = nn.Sequential(nn.Dropout(0.1), nn.Linear(384, 6))
    model = DistributedDataParallel(head)  # expect: DEV014
    model = model.cuda(rank)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
    emb = torch.randn(1024, 384)
    labels = torch.randint(0, 6, (1024,))
    world = dist.get_world_size()
    shard = slice(rank, None, world)
    x, y = emb[shard].cuda(rank), labels[shard].cuda(rank)
    for step in range(50):
        i = torch.randint(0, len(x), (64,), device=x.device)
        loss = F.cross_entropy(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
