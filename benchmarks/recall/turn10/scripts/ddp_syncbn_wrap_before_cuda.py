"""torchrun training of a small CNN with synchronised batch norm: the BatchNorm layers are
converted to SyncBatchNorm, the model is wrapped in DDP and then sent to the rank's GPU.

    torchrun --nproc_per_node=2 ddp_syncbn_wrap_before_cuda.py

Thread: https://github.com/dougsouza/pytorch-sync-batchnorm-example/issues/2 (asks for a complete
example of SyncBatchNorm with DDP, one process per GPU).
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def conv_net(classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, classes),
    )


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = nn.SyncBatchNorm.convert_sync_batchnorm(conv_net())
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.cuda(local_rank)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    data = TensorDataset(torch.rand(1024, 3, 32, 32), torch.randint(0, 10, (1024,)))
    sampler = DistributedSampler(data)
    loader = DataLoader(data, batch_size=32, sampler=sampler, pin_memory=True)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        for x, y in loader:
            x, y = x.cuda(local_rank, non_blocking=True), y.cuda(local_rank, non_blocking=True)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if dist.get_rank() == 0:
            print(epoch, loss.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
