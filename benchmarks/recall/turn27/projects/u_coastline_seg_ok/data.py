"""Synthetic coastal tiles: a noisy shoreline splits water from land, with a thin surf band."""
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_tiles(n, bands, size, seed=0):
    rng = np.random.default_rng(seed)
    imgs = rng.normal(size=(n, bands, size, size)).astype(np.float32)
    masks = np.zeros((n, size, size), dtype=np.int64)
    cols = np.arange(size)[None, :]
    for i in range(n):
        shore = rng.integers(size // 4, 3 * size // 4) + rng.integers(-2, 3, size=(size, 1))
        masks[i] = np.where(cols < shore, 0, 1)
        masks[i][np.abs(cols - shore) <= 1] = 2
        imgs[i, 0] += masks[i] * 0.8
    return torch.from_numpy(imgs), torch.from_numpy(masks)


def loaders(cfg):
    x, y = make_tiles(48, cfg.bands, cfg.tile)
    xv, yv = make_tiles(16, cfg.bands, cfg.tile, seed=1)
    return (DataLoader(TensorDataset(x, y), batch_size=cfg.batch_size, shuffle=True),
            DataLoader(TensorDataset(xv, yv), batch_size=cfg.batch_size))
