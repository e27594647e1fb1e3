import torch
from torch.utils.data import DataLoader, TensorDataset


def imbalanced_blobs(cfg, n=800, seed=0):
    g = torch.Generator().manual_seed(seed)
    probs = torch.tensor([0.55, 0.25, 0.13, 0.07])
    y = torch.multinomial(probs, n, replacement=True, generator=g)
    centers = torch.randn(cfg.num_classes, cfg.in_dim, generator=g) * 1.5
    x = centers[y] + torch.randn(n, cfg.in_dim, generator=g)
    return TensorDataset(x, y)


def make_loaders(cfg):
    train = DataLoader(imbalanced_blobs(cfg, seed=0), batch_size=cfg.batch_size, shuffle=True)
    val = DataLoader(imbalanced_blobs(cfg, n=200, seed=1), batch_size=cfg.batch_size)
    return train, val
