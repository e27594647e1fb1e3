"""Synthetic series, a min-max scaler and sliding (lookback, horizon) windows."""
import numpy as np
import torch
from torch.utils.data import Dataset


def make_series(n=1200, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    return (100 + 20 * np.sin(2 * np.pi * t / 24) + 5 * np.sin(2 * np.pi * t / 168)
            + 0.02 * t + rng.normal(0, 2, n)).astype(np.float32)


class MinMaxScaler:
    def fit(self, x):
        self.lo, self.hi = float(x.min()), float(x.max())
        return self

    def transform(self, x):
        return (x - self.lo) / (self.hi - self.lo)

    def inverse_transform(self, x):
        return x * (self.hi - self.lo) + self.lo


class SlidingWindows(Dataset):
    def __init__(self, series, lookback, horizon):
        self.series = torch.from_numpy(series)
        self.lookback, self.horizon = lookback, horizon

    def __len__(self):
        return len(self.series) - self.lookback - self.horizon + 1

    def __getitem__(self, i):
        x = self.series[i:i + self.lookback].unsqueeze(-1)
        y = self.series[i + self.lookback:i + self.lookback + self.horizon]
        return x, y
