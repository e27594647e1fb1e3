"""torchrun script done right: each rank on its own GPU, the checkpoint mapped onto it, class
weights and metric counters made on the rank's device."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--resume", default="")
    args = parser.parse_args()
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    x, y = torch.randn(8000, 40), torch.randint(0, 3, (8000,))
    ds = TensorDataset(x, y)
    sampler = DistributedSampler(ds)
    loader = DataLoader(ds, batch_size=128, sampler=sampler, pin_memory=True)
    counts = torch.bincount(y, minlength=3).float()
    criterion = nn.CrossEntropyLoss(weight=(counts.sum() / counts).to(device))
    model = DDP(nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 3)).to(device), device_ids=[local_rank])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    start = 0
    if args.resume and os.path.exists(args.resume):
        ckpt = torch.load(args.resume, map_location=device)
        model.module.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["opt"])
        start = ckpt["epoch"] + 1
    for epoch in range(start, args.epochs):
        sampler.set_epoch(epoch)
        correct = torch.zeros(2, device=device)
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
            out = model(xb)
            loss = criterion(out, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += torch.stack([(out.argmax(1) == yb).sum(), torch.tensor(yb.numel(), device=device)])
        dist.all_reduce(correct)
        if dist.get_rank() == 0:
            print(epoch, (correct[0] / correct[1]).item())
            torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": epoch}, "ckpt.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
