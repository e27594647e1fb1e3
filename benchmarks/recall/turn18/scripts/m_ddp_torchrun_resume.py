"""Multi-GPU training of a ResNet-ish classifier with torchrun.

    torchrun --nproc_per_node=4 m_ddp_torchrun_resume.py --epochs 10 --ckpt /scratch/run1/last.pt
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


def setup():
    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    return local_rank


def build_model(num_classes=10):
    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2))
    return nn.Sequential(block(3, 32), block(32, 64), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, num_classes))


def synthetic_cifar(n=2048):
    x = torch.randn(n, 3, 32, 32)
    y = torch.randint(0, 10, (n,))
    return TensorDataset(x, y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch_size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--ckpt", default="last.pt")
    args = parser.parse_args()

    local_rank = setup()
    device = torch.device("cuda", local_rank)
    rank = dist.get_rank()

    model = build_model()
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)

    start_epoch = 0
    if os.path.exists(args.ckpt):
        dist.barrier()
        state = torch.load(args.ckpt)  # expect: DEV008
        model.module.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start_epoch = state["epoch"] + 1
        if rank == 0:
            print(f"resuming at epoch {start_epoch}")

    dataset = synthetic_cifar()
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, num_workers=2, pin_memory=True)

    for epoch in range(start_epoch, args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for images, labels in loader:
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        if rank == 0:
            torch.save({"model": model.module.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch},
                       args.ckpt)
            print(f"epoch {epoch} loss {loss.item():.3f}")
        dist.barrier()

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
