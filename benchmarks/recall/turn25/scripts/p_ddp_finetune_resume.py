"""DDP fine-tuning of an image classifier with torchrun, resuming from the
last checkpoint if one exists, with a global accuracy reduced across ranks.

    torchrun --nproc_per_node=4 p_ddp_finetune_resume.py --resume last.pt
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


def build_model(classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(64, classes),
    )


def global_accuracy(correct, total):
    stats = torch.tensor([correct, total], dtype=torch.float64, device="cuda:0")  # expect: DEV013
    dist.all_reduce(stats, op=dist.ReduceOp.SUM)
    return (stats[0] / stats[1]).item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--resume", default=None)
    parser.add_argument("--save", default="last.pt")
    args = parser.parse_args()

    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    model = build_model()
    start_epoch = 0
    if args.resume and os.path.exists(args.resume):
        ckpt = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(ckpt["model"])
        start_epoch = ckpt["epoch"] + 1
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)

    data = TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,)))
    sampler = DistributedSampler(data)
    loader = DataLoader(data, batch_size=32, sampler=sampler, num_workers=2, pin_memory=True)

    for epoch in range(start_epoch, args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        correct = total = 0
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1) == y).sum().item()
            total += y.numel()
        acc = global_accuracy(correct, total)
        if dist.get_rank() == 0:
            print(f"epoch {epoch}: train acc {acc:.3f}")
            torch.save({"model": model.module.state_dict(), "epoch": epoch}, args.save)
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
