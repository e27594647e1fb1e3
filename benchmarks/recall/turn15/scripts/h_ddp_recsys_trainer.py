"""Neural collaborative filtering (NeuMF) trained with DDP.

    torchrun --nproc_per_node=4 h_ddp_recsys_trainer.py --epochs 10
    torchrun --nproc_per_node=4 h_ddp_recsys_trainer.py --resume ckpt/ncf_last.pt
    python h_ddp_recsys_trainer.py            # single process (gloo), for debugging
"""
import argparse
import os

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class NeuMF(nn.Module):
    def __init__(self, n_users, n_items, gmf_dim=16, mlp_dims=(64, 32, 16)):
        super().__init__()
        self.gmf_user = nn.Embedding(n_users, gmf_dim)
        self.gmf_item = nn.Embedding(n_items, gmf_dim)
        self.mlp_user = nn.Embedding(n_users, mlp_dims[0] // 2)
        self.mlp_item = nn.Embedding(n_items, mlp_dims[0] // 2)
        layers = []
        for d_in, d_out in zip(mlp_dims[:-1], mlp_dims[1:]):
            layers += [nn.Linear(d_in, d_out), nn.ReLU()]
        self.mlp = nn.Sequential(*layers)
        self.predict = nn.Linear(gmf_dim + mlp_dims[-1], 1)
        for emb in (self.gmf_user, self.gmf_item, self.mlp_user, self.mlp_item):
            nn.init.normal_(emb.weight, std=0.01)

    def forward(self, users, items):
        gmf = self.gmf_user(users) * self.gmf_item(items)
        mlp = self.mlp(torch.cat([self.mlp_user(users), self.mlp_item(items)], -1))
        return self.predict(torch.cat([gmf, mlp], -1)).squeeze(-1)


def build_dataset(n_users=400, n_items=300, n_pos=6000, neg_ratio=2, seed=0):
    rng = np.random.default_rng(seed)
    u = rng.integers(0, n_users, n_pos)
    i = (u * 7 + rng.integers(0, 15, n_pos)) % n_items  # users like a band of items
    nu = np.repeat(u, neg_ratio)
    ni = rng.integers(0, n_items, n_pos * neg_ratio)
    users = np.concatenate([u, nu])
    items = np.concatenate([i, ni])
    labels = np.concatenate([np.ones(n_pos), np.zeros(n_pos * neg_ratio)]).astype(np.float32)
    return TensorDataset(torch.from_numpy(users), torch.from_numpy(items), torch.from_numpy(labels))


def setup():
    if "RANK" not in os.environ:  # plain `python script.py`
        os.environ.update(RANK="0", WORLD_SIZE="1", LOCAL_RANK="0",
                          MASTER_ADDR="127.0.0.1", MASTER_PORT="29517")
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend)
    local_rank = int(os.environ["LOCAL_RANK"])
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    else:
        device = torch.device("cpu")
    return local_rank, device


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--resume", default=None)
    ap.add_argument("--save", default="ncf_last.pt")
    args = ap.parse_args()

    local_rank, device = setup()
    rank = dist.get_rank()
    torch.manual_seed(0)

    dataset = build_dataset()
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, drop_last=True)

    model = NeuMF(n_users=400, n_items=300)
    start_epoch = 0
    if args.resume:
        ckpt = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(ckpt["model"])
        start_epoch = ckpt["epoch"] + 1

    model = DDP(model, device_ids=[local_rank] if device.type == "cuda" else None)  # expect: DEV014
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.BCEWithLogitsLoss()

    for epoch in range(start_epoch, start_epoch + args.epochs):
        sampler.set_epoch(epoch)
        model.train()
        running = torch.zeros(2, device=device)
        for users, items, labels in loader:
            users, items, labels = users.to(device), items.to(device), labels.to(device)
            loss = criterion(model(users, items), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += torch.stack([loss.detach() * labels.numel(), torch.tensor(float(labels.numel()), device=device)])
        dist.all_reduce(running)
        if rank == 0:
            print(f"epoch {epoch}: loss {(running[0] / running[1]).item():.4f}")
            torch.save({"model": model.module.state_dict(), "epoch": epoch}, args.save)

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
