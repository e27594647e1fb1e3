"""Multi-GPU segmentation training with DistributedDataParallel.

    torchrun --nproc_per_node=4 i_ddp_seg_torchrun.py --epochs 2
    torchrun --nproc_per_node=4 i_ddp_seg_torchrun.py --resume runs/last.pt
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


class TinyUNet(nn.Module):
    def __init__(self, num_classes=3, ch=16):
        super().__init__()
        self.down1 = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU())
        self.down2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(2 * ch, ch, 2, stride=2)
        self.fuse = nn.Sequential(nn.Conv2d(2 * ch, ch, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(ch, num_classes, 1)

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.down2(d1)
        return self.head(self.fuse(torch.cat([d1, self.up(d2)], 1)))


def build_dataset(n=256, size=32):
    g = torch.Generator().manual_seed(0)
    images = torch.rand(n, 3, size, size, generator=g)
    masks = (images.mean(1) * 3).long().clamp(max=2)
    return TensorDataset(images, masks)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--resume", default="")
    p.add_argument("--out", default="runs")
    args = p.parse_args()

    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    model = TinyUNet()
    start_epoch = 0
    if args.resume:
        state = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(state["model"])
        start_epoch = state["epoch"] + 1
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)  # expect: DEV014
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    ds = build_dataset()
    sampler = DistributedSampler(ds, shuffle=True)
    loader = DataLoader(ds, batch_size=16, sampler=sampler, num_workers=2, pin_memory=True)

    for epoch in range(start_epoch, start_epoch + args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for images, masks in loader:
            images = images.to(device, non_blocking=True)
            masks = masks.to(device, non_blocking=True)
            loss = F.cross_entropy(model(images), masks)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        if dist.get_rank() == 0:
            os.makedirs(args.out, exist_ok=True)
            torch.save({"model": model.module.state_dict(), "epoch": epoch}, os.path.join(args.out, "last.pt"))
            print(f"epoch {epoch} loss {loss.item():.4f}")

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
