"""Sharded evaluation of a checkpoint with torchrun: every rank scores its shard of the
test set and rank 0 gathers the predictions and writes the report.

torchrun --nproc_per_node=4 u_ddp_eval_sharded.py --ckpt best.pt
"""
import argparse
import json
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_model():
    return nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 10))


def test_set(n=1000):
    g = torch.Generator().manual_seed(0)
    return TensorDataset(torch.randn(n, 32, generator=g), torch.randint(0, 10, (n,), generator=g))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default=None)
    ap.add_argument("--report", default="eval_report.json")
    args = ap.parse_args()

    dist.init_process_group(backend="nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device("cuda:0")  # expect: DEV013

    model = build_model()
    if args.ckpt:
        state = torch.load(args.ckpt, map_location="cpu")
        model.load_state_dict(state["model"])
    model = DDP(model, device_ids=[local_rank])  # expect: DEV014
    model.to(device)
    model.eval()

    ds = test_set()
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
    loader = DataLoader(ds, batch_size=64, sampler=sampler, num_workers=2, pin_memory=True)

    local = []
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            pred = model(x).argmax(1)
            local.extend(zip(pred.tolist(), y.tolist()))

    gathered = [None] * world
    dist.all_gather_object(gathered, local)
    if rank == 0:
        pairs = [p for part in gathered for p in part]
        acc = sum(p == t for p, t in pairs) / len(pairs)
        with open(args.report, "w") as fh:
            json.dump({"accuracy": acc, "n": len(pairs)}, fh)
        print(f"accuracy {acc:.4f} over {len(pairs)} examples")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
