"""torchrun entry point: rank setup from dist_utils.py, resume through checkpoint.py.

Thread: https://github.com/pytorch/pytorch/issues/70404 (GRU under DDP gets extra processes on GPU 0).
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

from checkpoint import load_checkpoint, save_checkpoint
from dist_utils import cleanup, setup


def main():
    local_rank = setup()
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 3)).to("cuda:0")  # expect: DEV013
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    start = load_checkpoint(model, opt) if os.path.exists("ckpt.pth") else 0
    ddp = DDP(model, device_ids=[local_rank])
    ds = TensorDataset(torch.randn(256, 16), torch.randint(0, 3, (256,)))
    sampler = DistributedSampler(ds)
    for epoch in range(start, start + 2):
        sampler.set_epoch(epoch)
        for x, y in DataLoader(ds, batch_size=32, sampler=sampler):
            x, y = x.to(local_rank), y.to(local_rank)
            loss = nn.functional.cross_entropy(ddp(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if dist.get_rank() == 0:
            save_checkpoint(model, opt, epoch)
    cleanup()


if __name__ == "__main__":
    main()
