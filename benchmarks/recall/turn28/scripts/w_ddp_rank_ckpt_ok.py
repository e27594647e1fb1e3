"""DDP fine-tuning launched with torchrun: DistributedSampler, warm start from a checkpoint, rank-0 saving.

    torchrun --nproc_per_node=4 w_ddp_rank_ckpt_ok.py --init pretrained.pt
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


def build_model():
    return nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.Linear(128, 10))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--init", default="")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--out", default="ddp_final.pt")
    args = ap.parse_args()

    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group(backend="nccl")
    rank = dist.get_rank()
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)

    model = build_model()
    if args.init and rank == 0:
        # only rank 0 reads the weights; DDP broadcasts them to the other ranks at wrap time
        state = torch.load(args.init, map_location="cpu")
        model.load_state_dict(state["model"])
    model.to(device)
    model = DDP(model, device_ids=[device.index])

    g = torch.Generator().manual_seed(0)
    x = torch.randn(4096, 32, generator=g)
    y = torch.randint(0, 10, (4096,), generator=g)
    dataset = TensorDataset(x, y)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=64, sampler=sampler, num_workers=2, pin_memory=True)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for xb, yb in loader:
            xb = xb.to(device, non_blocking=True)
            yb = yb.to(device, non_blocking=True)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        loss_t = loss.detach().clone()
        dist.all_reduce(loss_t, op=dist.ReduceOp.AVG)
        if rank == 0:
            print(f"epoch {epoch} mean loss {loss_t.item():.4f}")

    if rank == 0:
        torch.save({"model": model.module.state_dict()}, args.out)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
