"""Distributed knowledge distillation, launched with
    torchrun --nproc_per_node=4 v_ddp_distill_torchrun.py --teacher teacher.pt
Each rank keeps a frozen copy of the teacher; only the student is wrapped in DDP."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def make_teacher():
    return nn.Sequential(nn.Linear(64, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))


def make_student():
    return nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))


def distill_loss(s_logits, t_logits, labels, T=2.0, alpha=0.5):
    soft = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
    return alpha * soft + (1 - alpha) * F.cross_entropy(s_logits, labels)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher", required=True)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--batch-size", type=int, default=128)
    args = ap.parse_args()

    dist.init_process_group(backend="nccl")
    rank = dist.get_rank()
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    teacher = make_teacher()
    teacher.load_state_dict(torch.load(args.teacher))  # expect: DEV008
    teacher = teacher.cuda(0).eval()  # expect: DEV013
    for p in teacher.parameters():
        p.requires_grad_(False)

    student = make_student()
    student = DDP(student, device_ids=[local_rank])  # expect: DEV014
    student.to(device)
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)

    g = torch.Generator().manual_seed(0)
    x = torch.randn(4096, 64, generator=g)
    y = torch.randint(0, 10, (4096,), generator=g)
    ds = TensorDataset(x, y)
    sampler = DistributedSampler(ds, shuffle=True)
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=sampler, num_workers=2, pin_memory=True)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            with torch.no_grad():
                t_logits = teacher(xb)
            loss = distill_loss(student(xb), t_logits, yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f}")
            torch.save(student.module.state_dict(), "student.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
