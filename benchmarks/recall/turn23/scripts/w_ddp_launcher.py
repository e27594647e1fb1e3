"""Multi-GPU training launched with mp.spawn from a YAML config; warm-starts from a previous run."""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
import yaml
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

DEFAULT_CFG = """
model: {in_dim: 20, hidden: 64, n_classes: 4}
train: {epochs: 2, batch_size: 32, lr: 0.01}
init_from: runs/pretrain/last.pt
"""


def build_model(mcfg):
    return nn.Sequential(nn.Linear(mcfg["in_dim"], mcfg["hidden"]), nn.ReLU(),
                         nn.Linear(mcfg["hidden"], mcfg["n_classes"]))


def dataset(n=512, in_dim=20):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, in_dim, generator=g)
    return TensorDataset(x, (x[:, :4].argmax(1)))


def main_worker(rank, world_size, cfg):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    device = torch.device("cuda", rank)

    model = build_model(cfg["model"])
    if cfg.get("init_from") and os.path.exists(cfg["init_from"]):
        state = torch.load(cfg["init_from"])  # expect: DEV008
        model.load_state_dict(state["model"])
    model = DDP(model, device_ids=[rank])  # expect: DEV014
    model.to(device)

    ds = dataset(in_dim=cfg["model"]["in_dim"])
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank)
    loader = DataLoader(ds, batch_size=cfg["train"]["batch_size"], sampler=sampler)
    opt = torch.optim.SGD(model.parameters(), lr=cfg["train"]["lr"], momentum=0.9)

    for epoch in range(cfg["train"]["epochs"]):
        sampler.set_epoch(epoch)
        correct, seen = 0, 0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
            seen += y.numel()
        stats = torch.tensor([correct, seen], dtype=torch.float64, device="cuda:0")  # expect: DEV013
        dist.all_reduce(stats)
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.3f} acc {(stats[0] / stats[1]).item():.3f}")
    if rank == 0:
        os.makedirs("runs/finetune", exist_ok=True)
        torch.save({"model": model.module.state_dict()}, "runs/finetune/last.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    cfg = yaml.safe_load(open(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CFG)
    world_size = torch.cuda.device_count()
    mp.spawn(main_worker, args=(world_size, cfg), nprocs=world_size)
