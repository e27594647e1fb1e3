"""The model is wrapped in DDP while still on the CPU, and moved afterwards."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

use_cuda = torch.cuda.is_available()
dist.init_process_group("nccl" if use_cuda else "gloo")
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank) if use_cuda else torch.device("cpu")
model = DDP(nn.Linear(4, 1))
model.to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    x, y = torch.randn(8, 4).to(device), torch.randn(8, 1).to(device)
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
