# Token classification (NER-style) with DistributedDataParallel launched by mp.spawn.
# python m_ddp_spawn_collate.py --world_size 2
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

NUM_TAGS, VOCAB = 9, 2000


class NERData(Dataset):
    def __init__(self, n=1000, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.samples = []
        for _ in range(n):
            L = int(torch.randint(5, 40, (1,), generator=g))
            toks = torch.randint(1, VOCAB, (L,), generator=g)
            tags = torch.randint(0, NUM_TAGS, (L,), generator=g)
            self.samples.append((toks, tags))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


def pad_collate(batch):
    toks, tags = zip(*batch)
    return pad_sequence(toks, batch_first=True), pad_sequence(tags, batch_first=True, padding_value=-100)


def move_batch(batch, device="cuda:0"):  # expect: DEV013
    return tuple(t.to(device, non_blocking=True) for t in batch)


class BiLSTMTagger(nn.Module):
    def __init__(self, d=128):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d, padding_idx=0)
        self.lstm = nn.LSTM(d, d, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * d, NUM_TAGS)

    def forward(self, toks):
        h, _ = self.lstm(self.emb(toks))
        return self.out(h)


def worker(rank, world_size, epochs):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)

    model = DDP(BiLSTMTagger().to(rank), device_ids=[rank])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ds = NERData()
    sampler = DistributedSampler(ds, num_replicas=world_size, rank=rank)
    loader = DataLoader(ds, batch_size=32, sampler=sampler, collate_fn=pad_collate)

    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for batch in loader:
            toks, tags = move_batch(batch)
            logits = model(toks)
            loss = F.cross_entropy(logits.view(-1, NUM_TAGS), tags.view(-1), ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if rank == 0:
            print(f"epoch {epoch}: loss {loss.item():.3f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world_size", type=int, default=torch.cuda.device_count())
    ap.add_argument("--epochs", type=int, default=3)
    a = ap.parse_args()
    mp.spawn(worker, args=(a.world_size, a.epochs), nprocs=a.world_size, join=True)
