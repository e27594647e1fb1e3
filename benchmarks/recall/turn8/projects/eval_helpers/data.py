"""Batch helpers for the churn model.

Thread: https://github.com/bigscience-workshop/lm-evaluation-harness/pull/76 (move tokens to device:
a helper that moves part of the batch).
"""
import torch
from torch.utils.data import Dataset


class Churn(Dataset):
    def __init__(self, n=200):
        self.x, self.y = torch.randn(n, 14), torch.randint(0, 2, (n,)).float()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"x": self.x[i], "y": self.y[i]}


def unpack(batch, device):
    return batch["x"].to(device), batch["y"]
