"""torchrun --nproc-per-node 2 main.py   (or: python main.py, a single process)"""
import argparse

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, DistributedSampler

from engine import evaluate, train_one_epoch
from model import CoordConvNet
from utils.dist import cleanup, device_for, init_distributed, is_dist, load_checkpoint

NUM_CLASSES = 5


class Shapes(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.randn(n, 3, 16, 16, generator=g)
        self.labels = torch.randint(0, NUM_CLASSES, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"image": self.images[i], "label": self.labels[i]}


def loader(ds, batch_size, shuffle):
    sampler = DistributedSampler(ds, shuffle=shuffle) if is_dist() else None
    return DataLoader(ds, batch_size=batch_size, sampler=sampler,
                      shuffle=shuffle and sampler is None), sampler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--resume", default="")
    parser.add_argument("--out", default="model.pt")
    args = parser.parse_args()

    rank, world_size, local_rank = init_distributed()
    device = device_for(local_rank)
    torch.manual_seed(0)
    train_loader, train_sampler = loader(Shapes(128, 0), 16, shuffle=True)
    val_loader, _ = loader(Shapes(40, 1), 20, shuffle=False)

    model = CoordConvNet(NUM_CLASSES).to(device)
    if args.resume:
        model.load_state_dict(load_checkpoint(args.resume, device)["model"])
    if is_dist():
        model = DDP(model, device_ids=[local_rank] if device.type == "cuda" else None)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(args.epochs):
        if train_sampler is not None:
            train_sampler.set_epoch(epoch)
        loss = train_one_epoch(model, train_loader, criterion, optimizer, device)
        report = evaluate(model, val_loader, device, NUM_CLASSES)
        if rank == 0:
            print(f"epoch {epoch}: loss {loss:.4f} {report}")
    if rank == 0:
        net = model.module if is_dist() else model
        torch.save({"model": net.state_dict()}, args.out)
    cleanup()


if __name__ == "__main__":
    main()
