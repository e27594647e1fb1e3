"""Distributed evaluation of a trained checkpoint: every rank scores its shard, rank 0 reports."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--checkpoint", default="model_final.pt")
    p.add_argument("--batch-size", type=int, default=32)
    return p.parse_args()


def main():
    args = get_args()
    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
    state = torch.load(args.checkpoint, map_location="cuda:0")  # expect: DEV013
    model.load_state_dict(state["model"])
    model.to(device).eval()

    ds = TensorDataset(torch.randn(512, 20), torch.randint(0, 5, (512,)))
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=DistributedSampler(ds, shuffle=False))
    correct = torch.zeros(1, device=device)
    seen = torch.zeros(1, device=device)
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            correct += (model(x).argmax(1) == y).sum()
            seen += y.numel()
    dist.all_reduce(correct)
    dist.all_reduce(seen)
    if dist.get_rank() == 0:
        print(f"accuracy {(correct / seen).item():.4f} over {int(seen.item())} samples")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
