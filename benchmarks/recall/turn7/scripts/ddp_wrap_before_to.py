"""torchrun script: the model is wrapped for data parallelism, then the wrapper is sent to the
rank's GPU."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel


def main():
    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    net = DistributedDataParallel(net)  # expect: DEV014
    net = net.to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    for _ in range(10):
        x = torch.randn(8, 16, device=device)
        loss = F.mse_loss(net(x).squeeze(1), x.mean(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
