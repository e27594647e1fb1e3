"""Toy image-caption retrieval data: image features and caption token ids."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n, 2048, generator=g)
    captions = torch.randint(1, 10000, (n, 24), generator=g)
    return TensorDataset(feats, captions)


def build_loaders(batch_size=64):
    train = DataLoader(make_split(8192, 0), batch_size=batch_size, shuffle=True, drop_last=True)
    val = DataLoader(make_split(1024, 1), batch_size=256)
    return train, val
