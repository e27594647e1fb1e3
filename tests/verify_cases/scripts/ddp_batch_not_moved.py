"""DDP without device_ids (a single-device module may omit them), and the batch never moved to
the rank's GPU: the forward meets a CPU batch."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

use_cuda = torch.cuda.is_available()
dist.init_process_group("nccl" if use_cuda else "gloo")
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device(f"cuda:{local_rank}" if use_cuda else "cpu")
torch.manual_seed(0)
data = TensorDataset(torch.randn(256, 8), torch.randn(256, 1))
loader = DataLoader(data, batch_size=16, sampler=DistributedSampler(data))
model = DDP(nn.Linear(8, 1).to(device))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = nn.functional.mse_loss(model(x), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
dist.destroy_process_group()
