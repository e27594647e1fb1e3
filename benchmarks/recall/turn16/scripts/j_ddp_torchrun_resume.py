"""DDP training launched with torchrun.

    torchrun --standalone --nproc_per_node=4 j_ddp_torchrun_resume.py --epochs 10
    torchrun --standalone --nproc_per_node=4 j_ddp_torchrun_resume.py --resume snapshot.pt
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


def setup():
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend)
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")  # expect: DEV013
    return local_rank, device


def build_model():
    return nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--resume", default="")
    parser.add_argument("--snapshot", default="snapshot.pt")
    args = parser.parse_args()

    local_rank, device = setup()
    rank = dist.get_rank()

    torch.manual_seed(0)
    x = torch.randn(1024, 32)
    y = (x[:, :10] * 2).argmax(1)
    dataset = TensorDataset(x, y)
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler)

    model = build_model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    start_epoch = 0
    if args.resume:
        snapshot = torch.load(args.resume)  # expect: DEV008
        model.load_state_dict(snapshot["MODEL_STATE"])
        optimizer.load_state_dict(snapshot["OPTIMIZER_STATE"])
        start_epoch = snapshot["EPOCHS_RUN"]
        if rank == 0:
            print(f"Resuming training from snapshot at epoch {start_epoch}")

    ddp_model = DDP(model, device_ids=[local_rank] if torch.cuda.is_available() else None)

    for epoch in range(start_epoch, args.epochs):
        sampler.set_epoch(epoch)
        ddp_model.train()
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(ddp_model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        loss_t = loss.detach().clone()
        dist.all_reduce(loss_t)
        loss_t /= dist.get_world_size()
        if rank == 0:
            print(f"epoch {epoch} last-batch loss {loss_t.item():.4f}")
            torch.save({"MODEL_STATE": ddp_model.module.state_dict(),
                        "OPTIMIZER_STATE": optimizer.state_dict(),
                        "EPOCHS_RUN": epoch + 1}, args.snapshot)

    dist.destroy_process_group()


if __name__ == "__main__":
    main()
