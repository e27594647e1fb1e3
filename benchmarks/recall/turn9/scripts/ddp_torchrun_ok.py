"""Look-alike of ddp_torchrun_resume_no_map_location.py and ddp_spawn_worker_cuda0.py: every rank maps
the checkpoint onto its own GPU, pins its own device from LOCAL_RANK, and only rank 0 writes logs.

Thread: https://github.com/dptech-corp/deepmd-pytorch/pull/76 (fix extra GPU memory on rank 0 when
using DDP: set the device per rank).
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    model = nn.Sequential(nn.EmbeddingBag(1000, 64), nn.Linear(64, 4)).to(device)
    if os.path.exists("ckpt.pt"):
        state = torch.load("ckpt.pt", map_location={"cuda:0": f"cuda:{local_rank}"})
        model.load_state_dict(state["model"])
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ds = TensorDataset(torch.randint(0, 1000, (256, 20)), torch.randint(0, 4, (256,)))
    sampler = DistributedSampler(ds)
    for epoch in range(2):
        sampler.set_epoch(epoch)
        for ids, y in DataLoader(ds, batch_size=32, sampler=sampler):
            ids, y = ids.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = nn.functional.cross_entropy(model(ids), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if dist.get_rank() == 0:
            print(epoch, loss.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
