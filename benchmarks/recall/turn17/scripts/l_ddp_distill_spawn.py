"""Data-parallel distillation of a frozen teacher into a student, one process
per GPU via mp.spawn (falls back to gloo / CPU processes without GPUs).

    python l_ddp_distill_spawn.py --world-size 4
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


def mlp(width, depth, d_in=20, n_out=4):
    layers, d = [], d_in
    for _ in range(depth):
        layers += [nn.Linear(d, width), nn.ReLU()]
        d = width
    return nn.Sequential(*layers, nn.Linear(d, n_out))


def dataset(n=2048, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    y = (x[:, :4] * torch.tensor([1.0, -1.0, 0.5, 2.0])).argmax(1)
    return TensorDataset(x, y)


def worker(rank, world_size, args):
    use_cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if use_cuda else "gloo", init_method=f"tcp://127.0.0.1:{args.port}",
                            rank=rank, world_size=world_size)
    if use_cuda:
        torch.cuda.set_device(0)  # expect: DEV013
    device = torch.device("cuda", torch.cuda.current_device()) if use_cuda else torch.device("cpu")
    torch.manual_seed(1234 + rank)

    teacher = mlp(256, 3).to(device).eval()
    if os.path.exists(args.teacher):
        teacher.load_state_dict(torch.load(args.teacher, map_location=device))

    student = mlp(32, 1)
    student = DDP(student, device_ids=[device.index] if use_cuda else None)  # expect: DEV014
    student.to(device)
    opt = torch.optim.Adam(student.parameters(), lr=1e-3 * world_size)

    ds = dataset()
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(ds, batch_size=64, sampler=sampler)
    T = args.temperature
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            with torch.no_grad():
                t_logits = teacher(x)
            s_logits = student(x)
            kd = F.kl_div(F.log_softmax(s_logits / T, -1), F.log_softmax(t_logits / T, -1),
                          reduction="batchmean", log_target=True) * T * T
            loss = 0.5 * kd + 0.5 * F.cross_entropy(s_logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        loss_t = loss.detach().clone()
        dist.all_reduce(loss_t)
        if rank == 0:
            print(f"epoch {epoch}: mean loss over ranks {loss_t.item() / world_size:.4f}")

    if rank == 0:
        torch.save(student.module.state_dict(), args.out)
    dist.barrier()
    dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--world-size", type=int, default=torch.cuda.device_count() or 1)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--temperature", type=float, default=2.0)
    ap.add_argument("--teacher", default="teacher_mlp.pt")
    ap.add_argument("--out", default="student_mlp.pt")
    ap.add_argument("--port", type=int, default=29533)
    args = ap.parse_args()
    mp.spawn(worker, args=(args.world_size, args), nprocs=args.world_size, join=True)


if __name__ == "__main__":
    main()
