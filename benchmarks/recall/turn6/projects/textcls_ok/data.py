"""Toy intent data and a collate_fn that pads and moves the batch to the device it is bound to."""
from functools import partial

import torch
from torch.utils.data import DataLoader


def toy_data(n=200, vocab=64, n_classes=4):
    g = torch.Generator().manual_seed(0)
    rows = []
    for _ in range(n):
        length = int(torch.randint(3, 10, (1,), generator=g))
        ids = torch.randint(1, vocab, (length,), generator=g).tolist()
        rows.append((ids, ids[0] % n_classes))
    return rows


def collate(batch, device, pad=0):
    ids, labels = zip(*batch)
    T = max(len(s) for s in ids)
    x = torch.full((len(ids), T), pad, dtype=torch.long)
    for i, s in enumerate(ids):
        x[i, :len(s)] = torch.tensor(s)
    return x.to(device), (x != pad).to(device), torch.tensor(labels).to(device)


def make_loader(rows, batch_size, device, shuffle=True):
    return DataLoader(rows, batch_size=batch_size, shuffle=shuffle, collate_fn=partial(collate, device=device))
