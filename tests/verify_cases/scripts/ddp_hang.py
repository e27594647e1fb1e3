"""Rank 1 stops answering after three steps (a dead data source); rank 0 then waits for it in
the gradient all-reduce."""
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def next_batch(step, rank):
    if rank == 1 and step == 3:
        while True:
            time.sleep(0.05)
    return torch.randn(8, 4), torch.randn(8, 1)


dist.init_process_group("gloo")
rank = dist.get_rank()
model = DDP(nn.Linear(4, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x, y = next_batch(step, rank)
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
