import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class AerialTiles(Dataset):
    """Synthetic aerial tiles: roads are stripes, buildings rectangles, trees discs."""

    def __init__(self, n, size, ignore_index, seed=0):
        rng = np.random.default_rng(seed)
        yy, xx = np.mgrid[:size, :size]
        self.samples = []
        for _ in range(n):
            m = np.zeros((size, size), dtype=np.int64)
            x = rng.integers(0, size - 6)
            m[:, x:x + 6] = 1
            y0, x0 = rng.integers(0, size - 14, 2)
            m[y0:y0 + 12, x0:x0 + 14] = 2
            cy, cx = rng.integers(5, size - 5, 2)
            m[(yy - cy) ** 2 + (xx - cx) ** 2 < 16] = 3
            m[-3:, :] = ignore_index
            base = np.array([[0.2, 0.3, 0.2], [0.5, 0.5, 0.5], [0.7, 0.3, 0.3], [0.1, 0.6, 0.1]], np.float32)
            img = base[np.clip(m, 0, 3)].transpose(2, 0, 1) + rng.normal(0, 0.08, (3, size, size)).astype(np.float32)
            self.samples.append((torch.from_numpy(np.ascontiguousarray(img)), torch.from_numpy(m)))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


def make_loaders(cfg):
    train = AerialTiles(48, cfg.image_size, cfg.ignore_index, seed=0)
    val = AerialTiles(12, cfg.image_size, cfg.ignore_index, seed=1)
    return (DataLoader(train, batch_size=cfg.batch_size, shuffle=True),
            DataLoader(val, batch_size=cfg.batch_size))
