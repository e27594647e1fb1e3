"""Multi-GPU training of a clip classifier with torchrun:

    torchrun --nproc_per_node=4 x_ddp_video_torchrun.py --resume runs/last.pt

Each rank reads its shard through a DistributedSampler.
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class ClipDataset(Dataset):
    def __init__(self, n=64, frames=8, size=32, n_classes=5):
        g = torch.Generator().manual_seed(0)
        self.clips = torch.rand(n, 3, frames, size, size, generator=g)
        self.labels = torch.randint(0, n_classes, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.clips[i], self.labels[i]


class Clip3DNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv3d(3, 16, 3, padding=1), nn.BatchNorm3d(16), nn.ReLU(), nn.MaxPool3d(2),
            nn.Conv3d(16, 32, 3, padding=1), nn.BatchNorm3d(32), nn.ReLU(), nn.AdaptiveAvgPool3d(1),
        )
        self.fc = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def setup():
    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda:0")  # expect: DEV013
    torch.cuda.set_device(device)
    return local_rank, device


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--resume", default="")
    args = parser.parse_args()

    local_rank, device = setup()
    model = Clip3DNet()
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)

    start_epoch = 0
    if args.resume:
        ckpt = torch.load(args.resume)  # expect: DEV008
        model.module.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start_epoch = ckpt["epoch"] + 1

    dataset = ClipDataset()
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=4, sampler=sampler, num_workers=2, pin_memory=True)

    for epoch in range(start_epoch, args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for clips, labels in loader:
            clips = clips.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            loss = F.cross_entropy(model(clips), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if dist.get_rank() == 0:
            print(f"epoch {epoch} loss {loss.item():.4f}")
            torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict(),
                        "epoch": epoch}, "last.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
