"""Land-cover segmentation of multispectral tiles with DDP (launch with torchrun).
Each rank trains on its shard; mIoU is tracked with torchmetrics on the validation tiles."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler
from torchmetrics.classification import MulticlassJaccardIndex


def build_model(bands=8, n_classes=6):
    return nn.Sequential(
        nn.Conv2d(bands, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, n_classes, 1),
    )


def synthetic_tiles(n, bands=8, size=32, n_classes=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    return TensorDataset(torch.randn(n, bands, size, size, generator=g),
                         torch.randint(0, n_classes, (n, size, size), generator=g))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=4)
    args = ap.parse_args()

    dist.init_process_group("nccl")
    rank = dist.get_rank()
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda:0")  # expect: DEV013
    torch.cuda.set_device(device)

    model = build_model()
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    train_ds = synthetic_tiles(64)
    val_ds = synthetic_tiles(16, seed=1)
    sampler = DistributedSampler(train_ds, shuffle=True)
    train_loader = DataLoader(train_ds, batch_size=args.batch_size, sampler=sampler)
    val_loader = DataLoader(val_ds, batch_size=args.batch_size,
                            sampler=DistributedSampler(val_ds, shuffle=False))
    miou = MulticlassJaccardIndex(num_classes=6, average="macro")  # expect: DEV019

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for x, y in train_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        miou.reset()
        with torch.no_grad():
            for x, y in val_loader:
                x, y = x.to(device), y.to(device)
                miou.update(model(x).argmax(dim=1), y)
        score = miou.compute()
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.4f} val mIoU {score.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
