"""Data-parallel training of a segmentation net, launched with
    torchrun --nproc_per_node=4 t_ddp_seg_torchrun.py --resume runs/last.pt
Each process trains on its shard (DistributedSampler); rank 0 saves checkpoints."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_model(n_classes=6):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, n_classes, 1),
    )


def setup():
    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(0)  # expect: DEV013
    return local_rank, dist.get_rank(), dist.get_world_size()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--resume", default=None)
    ap.add_argument("--out", default="runs")
    args = ap.parse_args()

    local_rank, rank, world = setup()
    device = torch.device("cuda", local_rank)

    model = build_model()
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    if args.resume:
        state = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(state["model"])
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01 * world, momentum=0.9)

    data = TensorDataset(torch.rand(64, 3, 32, 32), torch.randint(0, 6, (64, 32, 32)))
    sampler = DistributedSampler(data, num_replicas=world, rank=rank, shuffle=True)
    loader = DataLoader(data, batch_size=8, sampler=sampler, num_workers=2, pin_memory=True)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for images, masks in loader:
            images = images.to(device, non_blocking=True)
            masks = masks.to(device, non_blocking=True)
            loss = F.cross_entropy(model(images), masks, ignore_index=255)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            os.makedirs(args.out, exist_ok=True)
            torch.save({"model": model.module.state_dict(), "epoch": epoch}, os.path.join(args.out, "last.pt"))
            print(f"epoch {epoch} loss {loss.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
