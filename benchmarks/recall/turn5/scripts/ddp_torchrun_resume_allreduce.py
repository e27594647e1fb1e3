"""torchrun training script for a ResNet on ImageFolder data: resumes from a checkpoint written by
rank 0 and reports accuracy reduced over all ranks.

    torchrun --nproc_per_node=4 ddp_torchrun_resume_allreduce.py --data /data/imagenette --resume last.pt
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler
from torchvision import datasets, transforms
from torchvision.models import resnet18


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    stats = torch.tensor([correct, total], dtype=torch.float64)  # expect: DEV006
    dist.all_reduce(stats)
    return (stats[0] / stats[1]).item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--resume", default="")
    args = parser.parse_args()

    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    tf = transforms.Compose([transforms.RandomResizedCrop(160), transforms.ToTensor()])
    train = datasets.ImageFolder(os.path.join(args.data, "train"), tf)
    val = datasets.ImageFolder(os.path.join(args.data, "val"), transforms.Compose([transforms.Resize(160), transforms.CenterCrop(160), transforms.ToTensor()]))
    train_sampler = DistributedSampler(train)
    train_loader = DataLoader(train, batch_size=64, sampler=train_sampler, num_workers=4, pin_memory=True)
    val_loader = DataLoader(val, batch_size=128, sampler=DistributedSampler(val, shuffle=False), num_workers=4)

    model = resnet18(num_classes=len(train.classes)).to(device)
    model = DDP(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-5)
    start = 0
    if args.resume and os.path.exists(args.resume):
        ckpt = torch.load(args.resume)  # expect: DEV008
        model.module.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["opt"])
        start = ckpt["epoch"] + 1

    for epoch in range(start, args.epochs):
        train_sampler.set_epoch(epoch)
        model.train()
        for x, y in train_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = evaluate(model, val_loader, device)
        if dist.get_rank() == 0:
            print(f"epoch {epoch} acc {acc:.3f}")
            torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": epoch}, "last.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
