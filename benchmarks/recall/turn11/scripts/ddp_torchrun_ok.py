"""Look-alike of ddp_torchrun_set_device_zero.py and ddp_spawn_resume_optimizer.py: each rank
pins its LOCAL_RANK GPU, the model moves before DDP wraps it, the checkpoint is mapped to the
rank's own GPU, and the optimizer state is loaded after the move; rank 0 alone writes.

Thread: https://github.com/openai/gpt-oss/pull/267 (use LOCAL_RANK, not the global rank, for the
CUDA device of each torchrun worker).
"""
import argparse
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
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, n_events)

    def forward(self, mel):
        return self.fc(self.conv(mel).flatten(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    args = parser.parse_args()
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    model = EventNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    start = 0
    if args.resume:
        ckpt = torch.load(args.resume, map_location={"cuda:0": f"cuda:{local_rank}"})
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["optimizer"])
        start = ckpt["epoch"] + 1
    model = DDP(model, device_ids=[local_rank])
    ds = TensorDataset(torch.randn(1024, 1, 64, 32), torch.randint(0, 10, (1024,)))
    sampler = DistributedSampler(ds)
    loader = DataLoader(ds, batch_size=32, sampler=sampler, pin_memory=True)
    for epoch in range(start, start + 2):
        sampler.set_epoch(epoch)
        for mel, label in loader:
            mel, label = mel.to(device, non_blocking=True), label.to(device, non_blocking=True)
            loss = F.cross_entropy(model(mel), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if dist.get_rank() == 0:
            torch.save({"model": model.module.state_dict(), "optimizer": opt.state_dict(),
                        "epoch": epoch}, "eventnet_last.pt")
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
