"""Rank 0 saves a checkpoint; every rank loads it without map_location (onto cuda:0)."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

use_cuda = torch.cuda.is_available()
dist.init_process_group("nccl" if use_cuda else "gloo")
local_rank = int(os.environ["LOCAL_RANK"])
if use_cuda:
    torch.cuda.set_device(local_rank)
device = torch.device("cuda", local_rank) if use_cuda else torch.device("cpu")
torch.manual_seed(0)
model = nn.Linear(4, 1).to(device)
if dist.get_rank() == 0:
    torch.save(model.state_dict(), "init.pt")
dist.barrier()
model.load_state_dict(torch.load("init.pt"))
model = DDP(model, device_ids=[local_rank] if use_cuda else None)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    x, y = torch.randn(8, 4).to(device), torch.randn(8, 1).to(device)
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
