"""DDP training of a small segmentation net, launched with
`torchrun --nproc_per_node=4 x_ddp_seg.py`."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class SegNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=2, dilation=2), nn.BatchNorm2d(32), nn.ReLU(),
        )
        self.cls = nn.Conv2d(32, num_classes, 1)

    def forward(self, x):
        return self.cls(self.body(x))


def main():
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    dist.init_process_group(backend="nccl")
    rank = dist.get_rank()
    device = torch.device("cuda", 0)  # expect: DEV013
    torch.cuda.set_device(device)

    images = torch.rand(64, 3, 48, 48)
    masks = torch.randint(0, 5, (64, 48, 48))
    dataset = TensorDataset(images, masks)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=8, sampler=sampler, num_workers=2, pin_memory=True)

    model = nn.SyncBatchNorm.convert_sync_batchnorm(SegNet())
    model = DDP(model, device_ids=[device.index])  # expect: DEV014
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)

    for epoch in range(3):
        sampler.set_epoch(epoch)
        model.train()
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = F.cross_entropy(model(x), y, ignore_index=255)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f} (local rank {local_rank})")
            torch.save(model.module.state_dict(), "x_ddp_seg.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
