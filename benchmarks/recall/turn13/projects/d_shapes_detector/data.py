"""Synthetic dataset of coloured squares with per-cell targets, plus the batch helpers."""
import torch
from torch.utils.data import Dataset

from config import ANCHOR_SIZE, IMAGE_SIZE, INPUT_KEYS, NUM_CLASSES, STRIDE


class ShapesDataset(Dataset):
    def __init__(self, n=128, seed=0):
        self.g = torch.Generator().manual_seed(seed)
        self.samples = [self._make() for _ in range(n)]

    def _make(self):
        g, grid = self.g, IMAGE_SIZE // STRIDE
        image = torch.rand(3, IMAGE_SIZE, IMAGE_SIZE, generator=g) * 0.1
        cls = int(torch.randint(0, NUM_CLASSES, (1,), generator=g))
        size = int(torch.randint(6, 12, (1,), generator=g))
        x0, y0 = (int(v) for v in torch.randint(0, IMAGE_SIZE - size, (2,), generator=g))
        image[cls, y0:y0 + size, x0:x0 + size] = 1.0
        labels = torch.zeros(grid * grid, dtype=torch.long)
        deltas = torch.zeros(grid * grid, 4)
        cx, cy = x0 + size / 2, y0 + size / 2
        cell = int(cy // STRIDE) * grid + int(cx // STRIDE)
        labels[cell] = cls + 1
        ax, ay = (cell % grid + 0.5) * STRIDE, (cell // grid + 0.5) * STRIDE
        deltas[cell] = torch.tensor([(cx - ax) / ANCHOR_SIZE, (cy - ay) / ANCHOR_SIZE,
                                     torch.log(torch.tensor(size / ANCHOR_SIZE)),
                                     torch.log(torch.tensor(size / ANCHOR_SIZE))])
        return {"image": image, "labels": labels, "deltas": deltas}

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


def collate(samples):
    return {k: torch.stack([s[k] for s in samples]) for k in samples[0]}


def to_device(batch, device):
    """Move the network inputs of a collated batch to `device`."""
    return {k: (v.to(device, non_blocking=True) if k in INPUT_KEYS else v) for k, v in batch.items()}
