"""Correct look-alike: a torchrun job where the stop flag broadcast under NCCL is made on the rank's
own GPU, the SWA copy is placed on that same GPU, the model is moved before the DDP wrap, and the
resume checkpoint is mapped to the rank's device.

    torchrun --nproc_per_node=2 ddp_torchrun_broadcast_swa_ok.py

Thread: https://github.com/mistralai/mistral-inference/pull/257 (fix: move the broadcast tensor to
the local CUDA device before dist.broadcast).
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.optim.swa_utils import AveragedModel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main(epochs=8, ckpt="resume.pt"):
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    model = nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Linear(128, 5)).to(device)
    if os.path.exists(ckpt):
        model.load_state_dict(torch.load(ckpt, map_location=device))
    ddp = DDP(model, device_ids=[local_rank])
    swa_model = AveragedModel(model, device=device)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9)
    data = TensorDataset(torch.randn(2048, 24), torch.randint(0, 5, (2048,)))
    sampler = DistributedSampler(data)
    best = float("inf")
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        total = torch.zeros(1, device=device)
        for x, y in DataLoader(data, batch_size=64, sampler=sampler):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(ddp(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.detach()
        swa_model.update_parameters(model)
        dist.all_reduce(total)
        stop = torch.zeros(1, dtype=torch.int32, device=device)
        if dist.get_rank() == 0:
            stop.fill_(int(total.item() > best))
            best = min(best, total.item())
            torch.save(model.state_dict(), ckpt)
        dist.broadcast(stop, src=0)
        if stop.item():
            break
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
