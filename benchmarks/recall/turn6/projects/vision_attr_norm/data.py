"""Synthetic defect images: a bright scratch, a dark spot, or nothing."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loader(n, size, batch_size, shuffle):
    imgs = torch.rand(n, 3, size, size) * 0.5 + 0.25
    labels = torch.randint(0, 3, (n,))
    for i, c in enumerate(labels.tolist()):
        if c == 1:
            imgs[i, :, size // 2, :] = 1.0
        elif c == 2:
            imgs[i, :, 4:8, 4:8] = 0.0
    return DataLoader(TensorDataset(imgs, labels), batch_size=batch_size, shuffle=shuffle)
