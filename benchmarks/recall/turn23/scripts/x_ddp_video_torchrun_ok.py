"""torchrun launcher for a clip classifier:

    torchrun --nproc_per_node=4 x_ddp_video_torchrun_ok.py --resume runs/last.pt

Each rank uses its LOCAL_RANK GPU, the model is moved before the DDP wrap,
and the checkpoint is mapped onto the rank's own device.
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_model(n_classes=5):
    return nn.Sequential(
        nn.Conv3d(3, 16, 3, padding=1), nn.BatchNorm3d(16), nn.ReLU(), nn.MaxPool3d(2),
        nn.Conv3d(16, 32, 3, padding=1), nn.BatchNorm3d(32), nn.ReLU(), nn.AdaptiveAvgPool3d(1),
        nn.Flatten(), nn.Linear(32, n_classes),
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--resume", default="")
    args = parser.parse_args()

    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    model = nn.SyncBatchNorm.convert_sync_batchnorm(build_model()).to(device)
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)

    start_epoch = 0
    if args.resume:
        ckpt = torch.load(args.resume, map_location={"cuda:0": f"cuda:{local_rank}"})
        model.module.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start_epoch = ckpt["epoch"] + 1

    g = torch.Generator().manual_seed(0)
    dataset = TensorDataset(torch.rand(64, 3, 8, 32, 32, generator=g), torch.randint(0, 5, (64,), generator=g))
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=4, sampler=sampler, num_workers=2, pin_memory=True)

    for epoch in range(start_epoch, args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for clips, labels in loader:
            clips, labels = clips.to(device, non_blocking=True), labels.to(device, non_blocking=True)
            loss = F.cross_entropy(model(clips), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if dist.get_rank() == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}")
            torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict(),
                        "epoch": epoch}, "last.pt")
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
