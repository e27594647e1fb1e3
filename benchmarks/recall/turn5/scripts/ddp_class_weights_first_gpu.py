"""Multi-GPU training of an imbalanced text classifier with DistributedDataParallel, launched with
torchrun; class weights come from the label frequencies."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


class CNNText(nn.Module):
    def __init__(self, vocab=20000, d=128, classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.convs = nn.ModuleList(nn.Conv1d(d, 100, k) for k in (3, 4, 5))
        self.fc = nn.Linear(300, classes)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        return self.fc(torch.cat([c(h).relu().amax(-1) for c in self.convs], 1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)

    ids = torch.randint(0, 20000, (10000, 64))
    labels = torch.multinomial(torch.tensor([0.6, 0.2, 0.1, 0.07, 0.03]), 10000, replacement=True)
    ds = TensorDataset(ids, labels)
    sampler = DistributedSampler(ds)
    loader = DataLoader(ds, batch_size=64, sampler=sampler)

    counts = torch.bincount(labels, minlength=5).float()
    weights = (counts.sum() / counts).cuda(0)  # expect: DEV013
    criterion = nn.CrossEntropyLoss(weight=weights)
    model = DistributedDataParallel(CNNText().cuda(rank), device_ids=[rank])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            x, y = x.cuda(rank, non_blocking=True), y.cuda(rank, non_blocking=True)
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            print(epoch, loss.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
