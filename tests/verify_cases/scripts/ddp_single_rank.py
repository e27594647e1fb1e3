"""Single-process DistributedDataParallel, the way many repos run "distributed" code on one
machine: nccl when there is a GPU, a fixed MASTER_PORT."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29512")
use_cuda = torch.cuda.is_available()
dist.init_process_group("nccl" if use_cuda else "gloo", rank=0, world_size=1)
device = torch.device("cuda", 0) if use_cuda else torch.device("cpu")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
ddp = DDP(model, device_ids=[0] if use_cuda else None)
optimizer = torch.optim.SGD(ddp.parameters(), lr=0.05)
X, y = torch.randn(320, 10), torch.randn(320, 1)
for step in range(25):
    xb, yb = X[step % 10 * 32:(step % 10 + 1) * 32].to(device), y[step % 10 * 32:(step % 10 + 1) * 32].to(device)
    loss = nn.functional.mse_loss(ddp(xb), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
dist.destroy_process_group()
