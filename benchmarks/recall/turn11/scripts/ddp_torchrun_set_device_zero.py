"""Data-parallel training of a small audio-event classifier on log-mel patches, launched with
`torchrun --nproc_per_node=4 ddp_torchrun_set_device_zero.py`.

Threads: https://github.com/meta-pytorch/tritonbench/pull/869 (under torchrun every worker
defaults to GPU 0 unless it is pinned to its LOCAL_RANK) and
https://github.com/pytorch/pytorch/issues/100243 (DistributedDataParallel given a module whose
parameters are still on the CPU).
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class EventNet(nn.Module):
    def __init__(self, n_events=10):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                  nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, n_events)

    def forward(self, mel):
        return self.fc(self.conv(mel).flatten(1))


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(0)  # expect: DEV013
    device = torch.device("cuda", local_rank)

    model = DDP(EventNet())  # expect: DEV014
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    ds = TensorDataset(torch.randn(1024, 1, 64, 32), torch.randint(0, 10, (1024,)))
    sampler = DistributedSampler(ds, shuffle=True)
    loader = DataLoader(ds, batch_size=32, sampler=sampler, num_workers=2, pin_memory=True)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        for mel, label in loader:
            mel, label = mel.to(device, non_blocking=True), label.to(device, non_blocking=True)
            loss = F.cross_entropy(model(mel), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if dist.get_rank() == 0:
            print(f"epoch {epoch}: {loss.item():.3f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
