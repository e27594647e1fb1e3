"""DDP fine-tuning launched with torchrun:
    torchrun --nproc_per_node=2 s_ddp_finetune.py --epochs 3
Each rank trains on its shard; rank 0 evaluates and saves the weights."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_model(n_cls=5):
    return nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.LayerNorm(128), nn.Linear(128, n_cls))


def make_dataset(n, seed):
    g = torch.Generator().manual_seed(seed)
    return TensorDataset(torch.randn(n, 32, generator=g), torch.randint(0, 5, (n,), generator=g))


@torch.no_grad()
def evaluate(model, loader, device="cuda:0"):  # expect: DEV013
    model.eval()
    correct = torch.zeros(1, device=device)
    total = torch.zeros(1, device=device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(1) == y).sum()
        total += y.numel()
    dist.all_reduce(correct)
    dist.all_reduce(total)
    return (correct / total).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-3)
    args = ap.parse_args()

    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)

    model = build_model()
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.to(local_rank)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)

    train_ds, val_ds = make_dataset(256, 0), make_dataset(64, 1)
    sampler = DistributedSampler(train_ds, shuffle=True)
    train_loader = DataLoader(train_ds, batch_size=16, sampler=sampler)
    val_loader = DataLoader(val_ds, batch_size=16, sampler=DistributedSampler(val_ds, shuffle=False))

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        for x, y in train_loader:
            x, y = x.cuda(local_rank, non_blocking=True), y.cuda(local_rank, non_blocking=True)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = evaluate(model, val_loader)
        if dist.get_rank() == 0:
            print(f"epoch {epoch} loss {loss.item():.4f} val acc {acc:.3f}")

    if dist.get_rank() == 0:
        torch.save(model.module.state_dict(), "ddp_finetuned.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
