"""torchrun script: DDP training of an MLP regressor, rank-0 checkpointing, every rank
reloads the best weights, metrics reduced across ranks.

    torchrun --nproc_per_node=8 j_ddp_eval_all_gather.py --epochs 5
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def init_distributed():
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
        backend = "nccl"
    else:
        device = torch.device("cpu")
        backend = "gloo"
    dist.init_process_group(backend)
    return local_rank, device


def is_main():
    return dist.get_rank() == 0


def make_split(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 16)).astype(np.float32)
    y = (x[:, 0] * 2 - x[:, 1] + 0.1 * rng.normal(size=n)).astype(np.float32)
    return TensorDataset(torch.from_numpy(x), torch.from_numpy(y))


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    sq_err = torch.zeros((), device=device)
    count = torch.zeros((), device=device)
    preds = []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        p = model(x).squeeze(-1)
        sq_err += ((p - y) ** 2).sum()
        count += y.numel()
        preds.append(p)
    dist.all_reduce(sq_err)
    dist.all_reduce(count)
    local = torch.cat(preds)
    gathered = [torch.empty_like(local) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, local)
    return (sq_err / count).sqrt().item(), torch.cat(gathered).cpu().numpy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--ckpt-dir", default=tempfile.gettempdir())
    args = ap.parse_args()

    local_rank, device = init_distributed()
    ckpt_path = os.path.join(args.ckpt_dir, "j_ddp_best.pt")

    train_ds, val_ds = make_split(2048, 0), make_split(512, 1)
    train_sampler = DistributedSampler(train_ds)
    train_dl = DataLoader(train_ds, batch_size=args.bs, sampler=train_sampler)
    val_dl = DataLoader(val_ds, batch_size=256, sampler=DistributedSampler(val_ds, shuffle=False))

    net = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 1)).to(device)
    model = DDP(net, device_ids=[local_rank] if device.type == "cuda" else None)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

    best = float("inf")
    for epoch in range(args.epochs):
        train_sampler.set_epoch(epoch)
        model.train()
        for x, y in train_dl:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = nn.functional.mse_loss(model(x).squeeze(-1), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        rmse, all_preds = evaluate(model, val_dl, device)
        if is_main():
            print(f"epoch {epoch}: rmse {rmse:.4f} (pred std {all_preds.std():.3f})")
            if rmse < best:
                best = rmse
                torch.save(model.module.state_dict(), ckpt_path)
        dist.barrier()

    # every rank picks up the best weights; storages saved from rank 0 are remapped here
    state = torch.load(ckpt_path, map_location=device)
    model.module.load_state_dict(state)
    rmse, _ = evaluate(model, val_dl, device)
    if is_main():
        print(f"best rmse reloaded: {rmse:.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
