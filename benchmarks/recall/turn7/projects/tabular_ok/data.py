"""Synthetic applicants; the collate moves every tensor it builds to the device it is given."""
import functools

import torch
from torch.utils.data import DataLoader


def collate(rows, device):
    x = torch.stack([r[0] for r in rows]).to(device)
    y = torch.tensor([r[1] for r in rows], dtype=torch.float32).to(device)
    return x, y


def make_loader(n, settings, shuffle=True):
    g = torch.Generator().manual_seed(n)
    x = torch.randn(n, settings.n_features, generator=g)
    y = (x[:, 0] - x[:, 1] > 0.3).float()
    rows = [(x[i], float(y[i])) for i in range(n)]
    return DataLoader(rows, batch_size=settings.batch_size, shuffle=shuffle,
                      collate_fn=functools.partial(collate, device=settings.device))
