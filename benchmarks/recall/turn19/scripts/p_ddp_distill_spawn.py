"""Multi-GPU distillation with DistributedDataParallel, launched with mp.spawn.

    python p_ddp_distill_spawn.py --teacher teacher_resnet.pt --gpus 4
"""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def make_net(width, num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
        nn.Conv2d(width, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, num_classes),
    )


def synthetic_cifar(n=512):
    return TensorDataset(torch.randn(n, 3, 32, 32), torch.randint(0, 10, (n,)))


def kd_loss(s_logits, t_logits, labels, T=4.0, alpha=0.9):
    soft = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1), reduction="batchmean") * T * T
    return alpha * soft + (1 - alpha) * F.cross_entropy(s_logits, labels)


def worker(rank, world_size, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)

    teacher = make_net(128)
    teacher.load_state_dict(torch.load(args.teacher))  # expect: DEV008
    # the teacher is only used for inference, one copy is enough
    teacher = teacher.cuda(0).eval()  # expect: DEV013

    student = make_net(32)
    student = nn.SyncBatchNorm.convert_sync_batchnorm(student)
    student = DDP(student, device_ids=[rank])  # expect: DEV014

    dataset = synthetic_cifar()
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, num_workers=2, pin_memory=True)
    optimizer = torch.optim.SGD(student.parameters(), lr=args.lr * world_size, momentum=0.9, weight_decay=5e-4)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        student.train()
        for images, labels in loader:
            images = images.cuda(rank, non_blocking=True)
            labels = labels.cuda(rank, non_blocking=True)
            with torch.no_grad():
                t_logits = teacher(images)
            loss = kd_loss(student(images), t_logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if rank == 0:
            print(f"epoch {epoch}: last loss {loss.item():.3f}")
            torch.save(student.module.state_dict(), args.out)
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher", required=True)
    parser.add_argument("--out", default="student.pt")
    parser.add_argument("--gpus", type=int, default=torch.cuda.device_count())
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args()
    mp.spawn(worker, args=(args.gpus, args), nprocs=args.gpus, join=True)


if __name__ == "__main__":
    main()
